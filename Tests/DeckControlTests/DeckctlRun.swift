@testable import DeckControl
import DeckTestSupport
import Foundation
import Synchronization

/// Runs deckctl in this process and keeps what it printed.
struct DeckctlRun {
    let status: Int32
    let out: [String]
    let err: [String]

    /// Everything printed on standard output, as one text.
    var text: String { out.joined(separator: "\n") }

    /// Runs `deckctl ARGUMENTS` with these environment variables.
    init(_ arguments: [String], environment: [String: String] = [:]) {
        let lines = Mutex<(out: [String], err: [String])>(([], []))
        let console = Console(out: { line in lines.withLock { $0.out.append(line) } },
                              err: { line in lines.withLock { $0.err.append(line) } })
        status = Deckctl.run(arguments, console: console, environment: environment)
        (out, err) = lines.withLock { ($0.out, $0.err) }
    }
}

/// Runs a built executable as its own process and keeps what it printed.
struct ProcessRun {
    let status: Int32
    let out: String
    let err: String

    var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var errLines: [String] { err.split(separator: "\n").map(String.init) }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    directory: String? = nil) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs, so a full pipe never blocks it.
        let errData = Mutex(Data())
        let errDone = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread.detachNewThread {
            let data = errHandle.readDataToEndOfFile()
            errData.withLock { $0 = data }
            errDone.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.reap()
        return ProcessRun(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                          err: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }
}
