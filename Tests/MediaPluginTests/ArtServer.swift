import DeckTestSupport
import Foundation

/// Tests/e2e/media/art_server.py, started for a test: a real HTTP (or, with a
/// certificate, HTTPS) server on 127.0.0.1 and an ephemeral port, ended by `stop`.
final class ArtServer {
    let process = Process()
    private let input = Pipe(), output = Pipe()
    let port: Int
    let scheme: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../e2e/media/art_server.py").standardizedFileURL.path

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(tls: (certificate: String, key: String)? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        scheme = tls == nil ? "http" : "https"
        try process.run()
        // Its first line, printed once it listens.
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            process.reap()
            throw Failure(description: "art_server.py did not start (it said \(text.debugDescription))")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    func stop() {
        try? input.fileHandleForWriting.close()
        if !process.exited(within: .seconds(5)) {
            process.terminate()
            process.reap()
        }
    }

    /// A self-signed certificate for 127.0.0.1 in `folder`, made by openssl: what the plugin must refuse.
    static func selfSigned(in folder: TemporaryDirectory) throws -> (certificate: String, key: String) {
        let certificate = folder.appending("cert.pem").path, key = folder.appending("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
                             "-keyout", key, "-out", certificate]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.reap()
        guard openssl.terminationStatus == 0 else { throw Failure(description: "openssl req failed") }
        return (certificate, key)
    }
}
