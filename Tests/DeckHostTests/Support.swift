import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// The profile most tests serve: two pages of buttons (three in normal form).
let deskYAML = """
    name: default
    pages:
      - buttons:
          0: {name: Files, icon: folder, action: {open: "~"}}
          1: {name: Terminal, action: {run: "true"}}
          2: {name: Build, action: {run: "true"}}
          5: {name: Next, action: {page: next}}
      - buttons:
          0: {name: Lock, action: {run: "true"}}
          3: {name: Mail, action: {open: "mailto:a@b.c"}}
    """

/// A started host serving `deskYAML` (and any other files).
func startedHost(_ files: [String: String] = [:], arguments: [String] = []) throws -> HostProcess {
    var all = ["default.yaml": deskYAML]
    for (name, text) in files { all[name] = text }
    let host = try HostProcess(files: all, arguments: arguments)
    try host.start()
    return host
}

extension HostClient {
    /// The layout this client was welcomed with.
    var welcomeLayout: DeckLayout { welcome?.layout ?? .empty() }

    /// Sends a request and expects `ok`; returns its revision.
    @discardableResult
    func expectOK(_ request: ClientRequest, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int? {
        let reply = try self.request(request)
        guard case .ok(_, let revision) = reply else {
            Issue.record("expected ok, got \(reply)", sourceLocation: sourceLocation)
            return nil
        }
        return revision
    }

    /// Sends a request and expects `error` with `code`.
    func expectError(_ request: ClientRequest, _ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try self.request(request)
        guard case .error(_, let got, _, _) = reply, got == code else {
            Issue.record("expected error \(code), got \(reply)", sourceLocation: sourceLocation)
            return
        }
    }

    /// The `status` reply (control clients).
    func status() throws -> HostStatus {
        let reply = try request(.status)
        guard case .status(_, let status) = reply else { throw HarnessError("status answered with \(reply)") }
        return status
    }
}

func isLayout(_ message: HostMessage) -> Bool { if case .layout = message { true } else { false } }
func isLock(_ message: HostMessage) -> Bool { if case .lock = message { true } else { false } }
