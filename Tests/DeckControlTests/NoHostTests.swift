@testable import DeckControl
import DeckHost
import DeckTestSupport
import Foundation
import Glibc
import Testing

@Suite("deckctl without a host: exit 3 naming the socket")
struct NoHostTests {
    /// Every command that talks to the host, with valid arguments.
    static let hostCommands: [[String]] = [
        ["status"], ["show"], ["show", "0"], ["profiles"], ["use", "streaming"], ["set", "0", "1", "--name", "A", "--open", "x"],
        ["clear", "0", "1"], ["move", "0", "1", "1", "0"], ["press", "0", "1"], ["press", "0", "1", "--down"], ["lock"],
        ["unlock"], ["reload"], ["snapshots"], ["restore", "3"], ["export"], ["export", "-o", "/tmp/never-written.yaml"],
        ["pair", "Kim's iPad"], ["unpair", "Kim's iPad"], ["devices"], ["watch"],
    ]

    @Test(arguments: hostCommands)
    func noSocketFile(_ arguments: [String]) throws {
        let folder = try TemporaryDirectory(prefix: "nohost")
        let socket = folder.appending("control.sock").path
        let result = DeckctlRun(["--control", socket] + arguments)
        #expect(result.status == 3)
        #expect(result.err == ["deckctl: no host is answering on \(socket) (there is no socket file there); start it with 'deckd' "
                               + "(or 'systemctl --user start deckd'), or give its socket with --control PATH"])
        #expect(result.out.isEmpty)
    }

    /// A socket file left behind by a host that died: the file is there, nobody listens.
    @Test func aStaleSocketFile() throws {
        let folder = try TemporaryDirectory(prefix: "stale")
        let socket = folder.appending("control.sock").path
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (offset, byte) in socket.utf8.enumerated() { buffer[offset] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(descriptor)
        let result = DeckctlRun(["--json", "status", "--control", socket])
        #expect(result.status == 3)
        #expect(result.err.count == 1 && result.err[0].contains("the socket file is there, but no program is listening on it"))
        #expect(result.out.isEmpty)
    }

    @Test func theDefaultSocketFollowsDeckdsRule() {
        #expect(ControlSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
                == "/run/user/1000/deckd/control.sock")
        #expect(ControlSocket.defaultPath(environment: [:], userID: 1000) == "/tmp/deckd-1000/control.sock")
        #expect(ControlSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": ""], userID: 7) == "/tmp/deckd-7/control.sock")
        #expect(ControlSocket.defaultPath(environment: ["XDG_RUNTIME_DIR": "run"], userID: 7) == "/tmp/deckd-7/control.sock")
    }

    /// deckd and deckctl meet without options: the same default, character for character.
    @Test(arguments: [[:], ["XDG_RUNTIME_DIR": "/run/user/1000"], ["XDG_RUNTIME_DIR": "/run/user/1000/"],
                      ["XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "relative"], ["HOME": "/home/kim"]])
    func deckdAndDeckctlAgreeOnTheSocket(_ environment: [String: String]) {
        #expect(HostConfiguration.defaults(environment: environment).control
                == ControlSocket.defaultPath(environment: environment, userID: getuid()))
    }

    @Test func deckctlUsesTheDefaultSocketWithoutControl() throws {
        let folder = try TemporaryDirectory(prefix: "runtime")
        let result = DeckctlRun(["status"], environment: ["XDG_RUNTIME_DIR": folder.path])
        #expect(result.status == 3)
        #expect(result.err.first?.contains("on \(folder.path)/deckd/control.sock (") == true)
    }

    /// The real executable: its exit statuses and that it prints nothing else.
    @Test func theBuiltBinary() throws {
        let deckctl = try BuiltProducts.path("deckctl")
        let folder = try TemporaryDirectory(prefix: "binary")
        let socket = folder.appending("none.sock").path
        let noHost = try ProcessRun.run(deckctl, ["--control", socket, "show"])
        #expect(noHost.status == 3 && noHost.out.isEmpty && noHost.errLines.count == 1)
        let usage = try ProcessRun.run(deckctl, ["move", "0"])
        #expect(usage.status == 2 && usage.out.isEmpty && usage.errLines == ["deckctl: move needs INDEX, TO_PAGE and TO_INDEX; run 'deckctl move --help' for usage"])
        let help = try ProcessRun.run(deckctl, ["--help"])
        #expect(help.status == 0 && help.out.hasPrefix("usage: deckctl [--control PATH] [--json] COMMAND [ARGS]\n") && help.err.isEmpty)
        let environment = ["XDG_RUNTIME_DIR": folder.path, "PATH": "/usr/bin:/bin"]
        let fallback = try ProcessRun.run(deckctl, ["status"], environment: environment)
        #expect(fallback.status == 3 && fallback.err.contains("\(folder.path)/deckd/control.sock"))
    }
}
