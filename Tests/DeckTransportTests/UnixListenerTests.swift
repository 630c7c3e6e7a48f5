import DeckTestSupport
import Foundation
import Glibc
import Testing
@testable import DeckTransport

@Suite("Unix-domain listener")
struct UnixListenerTests {
    private func mode(_ path: String) -> (type: mode_t, permissions: mode_t)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT, info.st_mode & 0o777)
    }

    /// A socket file bound at `path` by a plain socket, listening or not.
    private func foreignSocket(at path: String, listening: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let address = try RawSocketAddress.unix(path: path)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw TestFailure("bind failed: \(errno)") }
        if listening { Glibc.listen(fd, 8) }
        return fd
    }

    private func listenError(_ path: String) throws -> TransportError? {
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        do {
            try loop.sync {
                _ = try loop.listen(on: .unix(path: path), handler: TestHandler(log: EventLog(), behavior: Behaviors.echo))
            }
            return nil
        } catch let error as TransportError {
            return error
        }
    }

    @Test func missingFoldersAreCreatedPrivateAndTheSocketIs0600() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let folder = temp.appending("run/deckd").path
        let path = folder + "/control.sock"
        let server = try TestServer.start(.unix(path: path))
        #expect(mode(folder)?.permissions == 0o700)
        #expect(mode(temp.appending("run").path)?.permissions == 0o700)
        #expect(mode(path)?.type == S_IFSOCK)
        #expect(mode(path)?.permissions == 0o600)

        let client = try server.client()
        #expect(try client.roundTrip("over unix") == "over unix")
        let peer = try server.onLoop { $0.connections.values.first?.peer }
        #expect(peer == SocketAddress(family: .unix, host: path, port: 0))
        #expect(peer?.isLoopback == true)
        server.stop()
        #expect(mode(path) == nil, "the socket file is removed at stop")
    }

    @Test func aGroupOrWorldAccessibleFolderIsRefused() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let folder = temp.appending("shared").path
        mkdir(folder, 0o700)
        chmod(folder, 0o750)
        let error = try listenError(folder + "/c.sock")
        guard case let .insecureFolder(path, reason)? = error else { throw TestFailure("expected insecureFolder, got \(String(describing: error))") }
        #expect(path == folder)
        #expect(reason.contains("0750") && reason.contains("chmod 700"))
        #expect(mode(folder + "/c.sock") == nil)
        #expect(mode(folder)?.permissions == 0o750, "the folder is never chmod-ed behind the user's back")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a folder to another user"))
    func aFolderOwnedBySomeoneElseIsRefused() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let folder = temp.appending("theirs").path
        mkdir(folder, 0o700)
        chown(folder, 65534, 65534)
        let error = try listenError(folder + "/c.sock")
        guard case let .insecureFolder(_, reason)? = error else { throw TestFailure("expected insecureFolder, got \(String(describing: error))") }
        #expect(reason.contains("belongs to user 65534"))
    }

    @Test func aSymlinkedFolderIsRefused() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        mkdir(temp.appending("real").path, 0o700)
        symlink(temp.appending("real").path, temp.appending("link").path)
        let error = try listenError(temp.appending("link/c.sock").path)
        guard case .insecureFolder? = error else { throw TestFailure("expected insecureFolder, got \(String(describing: error))") }
    }

    @Test func aStaleSocketIsTakenOver() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        // A crashed host leaves its socket file behind: bound, nobody listening.
        Sys.close(try foreignSocket(at: path, listening: false))
        #expect(mode(path)?.type == S_IFSOCK)
        let server = try TestServer.start(.unix(path: path))
        defer { server.stop() }
        #expect(try server.client().roundTrip("took over") == "took over")
        #expect(mode(path)?.permissions == 0o600)
    }

    @Test func aLiveHostIsNotStolenFrom() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        let first = try TestServer.start(.unix(path: path))
        defer { first.stop() }
        var before = stat()
        lstat(path, &before)
        #expect(try listenError(path) == .anotherHostListening(path: path))
        #expect(try listenError(path)?.description == "another host is listening on \(path); stop it first or choose another socket path")
        var after = stat()
        lstat(path, &after)
        #expect(before.st_ino == after.st_ino, "the live socket file is untouched")
        #expect(try first.client().roundTrip("still mine") == "still mine")
    }

    @Test func aLiveSocketOfAnotherProgramIsNotStolen() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        let foreign = try foreignSocket(at: path, listening: true)
        defer { Sys.close(foreign) }
        #expect(try listenError(path) == .anotherHostListening(path: path))
        #expect(mode(path)?.type == S_IFSOCK)
        _ = try LineClient(connectingTo: .unix(path: path))  // it still answers connects
    }

    @Test func somethingElseAtThePathIsLeftAlone() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("precious".utf8)))
        #expect(try listenError(path) == .notASocket(path: path))
        #expect(FileManager.default.contents(atPath: path) == Data("precious".utf8))
    }

    @Test func closingKeepsASocketFileThatIsNoLongerOurs() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        let server = try TestServer.start(.unix(path: path))
        // Someone replaced the file (e.g. removed it by hand and a new host started).
        unlink(path)
        let replacement = try foreignSocket(at: path, listening: false)
        defer { Sys.close(replacement) }
        server.stop()
        #expect(mode(path)?.type == S_IFSOCK, "only the file this listener made is removed")
    }

    @Test func aSocketBoundBeforeTheLoopIsClaimedAndAdoptedOrRemoved() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("control.sock").path
        let bound = try BoundSocket(.unix(path: path))
        #expect(mode(path)?.type == S_IFSOCK)
        // Claimed before any loop runs: a second one is refused and takes nothing.
        #expect(throws: TransportError.anotherHostListening(path: path)) { _ = try BoundSocket(.unix(path: path)) }
        // A client may connect already; it is served once a loop adopts the socket.
        let early = try LineClient(connectingTo: .unix(path: path))
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        try loop.sync {
            _ = try loop.listen(adopting: bound, handler: TestHandler(log: EventLog(), behavior: Behaviors.echo))
        }
        #expect(try early.roundTrip("waited") == "waited")
        // Released without a loop, a bound socket removes its file and lets the path go.
        let unused = temp.appending("unused.sock").path
        _ = try BoundSocket(.unix(path: unused))
        #expect(mode(unused) == nil)
        _ = try BoundSocket(.unix(path: unused))
    }

    @Test func connectingToNothingSaysSo() throws {
        let temp = try TemporaryDirectory(prefix: "unix")
        let path = temp.appending("none.sock").path
        #expect(throws: TransportError.connectFailed(endpoint: path, errno: ENOENT)) {
            _ = try LineClient(connectingTo: .unix(path: path))
        }
        #expect(TransportError.connectFailed(endpoint: path, errno: ENOENT).description.contains("is the host running?"))
    }
}
