import DeckTestSupport
import Foundation
import Synchronization
import Testing

/// The profiles the end-to-end tests serve: a phone desk with Korean and
/// emoji labels over two pages, and a second profile to switch to.
enum HostFiles {
    static let desk = """
        name: default
        pages:
          - title: Desk
            buttons:
              0: {name: Files, icon: folder, action: {open: "~"}}
              1: {name: Terminal, icon: "⌨️", action: {run: "true"}}
              2: {name: Build, action: {run: "exit 2"}}
              5: {name: 다음 페이지, icon: "➡️", action: {page: next}}
          - buttons:
              0: {name: Lock, action: {run: "true"}}
              3: {name: Mail, action: {open: "mailto:a@b.c"}}
        """
    static let streaming = """
        pages:
          - buttons:
              0: {name: Go live, icon: "🔴", action: {run: "true"}}
        """
    static let all = ["default.yaml": desk, "streaming.yaml": streaming]
}

/// A real deckd for one test, and deckctl run against it as a real process.
final class DeckctlAgainstHost {
    let host: HostProcess
    let deckctl: String

    init(files: [String: String] = HostFiles.all, arguments: [String] = []) throws {
        host = try HostProcess(files: files, arguments: arguments)
        try host.start()
        deckctl = try BuiltProducts.path("deckctl")
    }

    /// `deckctl --control SOCKET ARGUMENTS`.
    func run(_ arguments: String..., in directory: String? = nil) throws -> ProcessRun {
        try ProcessRun.run(deckctl, ["--control", host.control] + arguments, directory: directory)
    }

    /// `deckctl --control SOCKET --json ARGUMENTS`, each printed line parsed as a JSON object.
    func json(_ arguments: String...) throws -> (status: Int32, objects: [[String: Any]]) {
        let result = try ProcessRun.run(deckctl, ["--control", host.control, "--json"] + arguments)
        let objects = try result.outLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
        return (result.status, objects)
    }

    /// `deckctl watch` running in the background.
    func watch(json: Bool = false, all: Bool = false) throws -> WatchProcess {
        try WatchProcess(deckctl: deckctl, arguments: ["--control", host.control] + (json ? ["--json"] : []) + ["watch"]
                         + (all ? ["--all"] : []))
    }
}

/// `deckctl watch` as a background process whose lines are read as they come.
final class WatchProcess: @unchecked Sendable {
    // @unchecked Sendable: `lines` is behind a Mutex; the rest is set in init.
    private let process = Process()
    private let lines = LineBox()
    private let arrived = DispatchSemaphore(value: 0)
    private let errors = Pipe()

    init(deckctl: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: deckctl)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let handle = output.fileHandleForReading
        let lines = self.lines, arrived = self.arrived
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lines.mutex.withLock { $0.append(line) }
                    arrived.signal()
                }
            }
            arrived.signal()
        }
    }

    /// Every line printed so far.
    var printed: [String] { lines.mutex.withLock { $0 } }

    /// Waits (on the lines themselves, not a timer) until a printed line
    /// contains `text`; returns that line.
    @discardableResult
    func waitForLine(containing text: String, timeout: Duration = .seconds(10)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = printed.first(where: { $0.contains(text) }) { return line }
            let left = deadline - .now
            guard left > .zero else { throw WatchError(description: "no line with '\(text)' in \(printed)") }
            _ = arrived.wait(timeout: .now() + .milliseconds(Int(left / .milliseconds(1)) + 1))
        }
    }

    /// Sends `signal` and returns the exit status.
    func stop(with signal: Int32 = SIGINT) -> Int32 {
        kill(process.processIdentifier, signal)
        process.reap()
        return process.terminationStatus
    }

    /// Waits for the process to end on its own.
    func exitStatus(timeout: Duration = .seconds(10)) throws -> Int32 {
        guard process.exited(within: timeout) else { throw WatchError(description: "watch did not exit") }
        return process.terminationStatus
    }

    /// What it printed on standard error (after it ended).
    var errorText: String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // Also when it had already exited: only this frees the Process (Process+Reap.swift).
        process.reap()
    }

    struct WatchError: Error, CustomStringConvertible { let description: String }

    /// The lines read so far, shared with the reading thread.
    final class LineBox: Sendable {
        let mutex = Mutex<[String]>([])
    }
}
