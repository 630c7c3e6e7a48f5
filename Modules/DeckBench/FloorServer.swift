import Dispatch
import Foundation
import Glibc

/// The network floor: the least a server on this machine can do for the
/// same exchange — blocking sockets, one thread, no event loop, no parsing.
/// It accepts `connections` clients on 127.0.0.1; the first one is the
/// sender. For every line the sender sends it optionally makes a file durable
/// (``DurableFile``), then answers as `reply` says.
package final class FloorServer: Sendable {
    /// What the server answers to each line.
    package enum Reply: Sendable {
        /// The line back to the sender (the echo floor).
        case echo
        /// `reply` to the sender, then `broadcast` to every connection, the
        /// sender included (the shape of an edit's answer, the fan-out floor).
        case fanOut(reply: [UInt8], broadcast: [UInt8])
    }

    /// A file to make durable before each answer.
    package struct Durable: Sendable {
        package var folder: String
        package var bytes: [UInt8]
        /// Appended to one file with one `fdatasync` (the journal's floor)
        /// instead of a new file per answer.
        package var append: Bool

        package init(folder: String, bytes: [UInt8], append: Bool = false) {
            self.folder = folder
            self.bytes = bytes
            self.append = append
        }
    }

    /// The port it listens on.
    package let port: UInt16
    private let finished = DispatchSemaphore(value: 0)

    /// Listens at once (clients may connect right away) and serves on a new thread.
    package init(connections: Int, reply: Reply, durable: Durable? = nil) throws(BenchError) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw .system("cannot create a socket", errno) }
        var address = sockaddr_in.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1024) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(listener)
            throw .system("cannot listen on 127.0.0.1", code)
        }
        port = UInt16(bigEndian: address.sin_port)
        let finished = self.finished
        Thread.detachNewThread {
            FloorServer.serve(listener: listener, connections: connections, reply: reply, durable: durable)
            finished.signal()
        }
    }

    /// Waits until every client has closed and the thread is done.
    package func waitUntilFinished() { finished.wait() }

    private static func serve(listener: Int32, connections: Int, reply: Reply, durable: Durable?) {
        var clients: [BenchSocket] = []
        while clients.count < connections {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            clients.append(BenchSocket(accepted: fd))
        }
        close(listener)
        guard let sender = clients.first else { return }
        var file: DurableFile?
        var journal: AppendFile?
        if let durable {
            // No file, no floor: closing makes the client report it rather than measure a floor without the disk.
            if durable.append {
                guard let made = try? AppendFile(folder: durable.folder, name: "floor.journal") else { return }
                journal = made
            } else {
                guard let made = try? DurableFile(folder: durable.folder, name: "floor.json.gz") else { return }
                file = made
            }
        }
        // Any failure (a client gone) ends the server; the client side reports it.
        while let line = try? sender.readLine() {
            if let durable, let file {
                guard (try? file.write(durable.bytes)) != nil else { return }
            }
            if let durable, let journal {
                guard (try? journal.append(durable.bytes)) != nil else { return }
            }
            switch reply {
            case .echo:
                guard (try? sender.send(Array(line) + [UInt8(ascii: "\n")])) != nil else { return }
            case .fanOut(let answer, let broadcast):
                guard (try? sender.send(answer)) != nil else { return }
                for client in clients {
                    guard (try? client.send(broadcast)) != nil else { return }
                }
            }
            file?.removeOld()  // after the answer, as the store's retention runs beside the host's replies
        }
    }
}
