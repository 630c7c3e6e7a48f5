@testable import DeckPlugins
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Starting a plugin's program right after it was written.
@Suite struct SpawnTests {
    /// A program still open for writing somewhere (here in this process; in
    /// real life in a child another thread forked before its exec) cannot be
    /// run: ETXTBSY. That passes within moments, so spawning tries again.
    @Test func aProgramStillOpenForWritingIsTriedAgain() throws {
        let folder = try TemporaryDirectory(prefix: "spawn")
        let path = folder.path + "/plugin"
        let writer = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        let script = Array("#!/bin/sh\nexit 7\n".utf8)
        #expect(write(writer, script, script.count) == script.count)
        var retries = 0
        let child = try SpawnedChild.spawn([path]) {
            retries += 1
            if retries == 1 { close(writer) }  // the writer is done after the first refusal
        }
        // At least once; once more if another test's fork still held the file for a moment.
        #expect(retries >= 1, "refused while open for writing, then started")
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        #expect(status >> 8 & 0xff == 7)
        for fd in [child.input, child.output, child.errors, child.exitDescriptor] where fd >= 0 { close(fd) }
    }

    /// One that stays open is a failure that names it, after a few tries.
    @Test func aProgramThatStaysOpenForWritingFails() throws {
        let folder = try TemporaryDirectory(prefix: "spawn")
        let path = folder.path + "/plugin"
        let writer = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        defer { close(writer) }
        var retries = 0
        #expect(throws: SpawnedChild.Failure.self) {
            _ = try SpawnedChild.spawn([path]) { retries += 1 }
        }
        #expect(retries == 5)
    }

    /// A descriptor of the host's that is not close-on-exec (Foundation opens
    /// files so) is not inherited: held by a long-lived child, a file being
    /// written stayed busy and every spawn of it failed ETXTBSY.
    /// exec says "No such file or directory" of a script that is there when
    /// the interpreter its `#!` names is not: the reason says which.
    @Test func aScriptWhoseInterpreterIsMissingSaysSo() throws {
        let folder = try TemporaryDirectory(prefix: "spawn")
        let path = folder.path + "/plugin"
        try "#!/usr/bin/no-such-python3 -u\nprint('hi')\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        do {
            _ = try SpawnedChild.spawn([path])
            Issue.record("a script with a missing interpreter started")
        } catch {
            #expect(error.reason == "No such file or directory: the interpreter its first line names, '/usr/bin/no-such-python3', is not there")
        }
        do {
            _ = try SpawnedChild.spawn([folder.path + "/missing"])
            Issue.record("a missing program started")
        } catch {
            #expect(error.reason == "No such file or directory")
        }
    }

    @Test func aChildGetsItsThreeDescriptorsOnly() throws {
        let folder = try TemporaryDirectory(prefix: "spawn")
        let leaked = open(folder.path + "/open-here", O_WRONLY | O_CREAT | O_TRUNC, 0o644)  // no O_CLOEXEC, on purpose
        try #require(leaked >= 0)
        defer { close(leaked) }
        let child = try SpawnedChild.spawn(["/bin/sh", "-c", "ls -l /proc/$$/fd"])
        defer { for fd in [child.input, child.output, child.errors, child.exitDescriptor] where fd >= 0 { close(fd) } }
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        var listing = [UInt8](repeating: 0, count: 65536)
        var text = ""
        while true {
            let count = read(child.output, &listing, listing.count)
            if count <= 0 { break }
            text += String(decoding: listing[..<count], as: UTF8.self)
        }
        #expect(status == 0)
        #expect(text.contains(" 1 -> ") && text.contains(" 2 -> "), "\(text)")
        #expect(!text.contains("open-here"), "the host's descriptor reached the child:\n\(text)")
    }
}
