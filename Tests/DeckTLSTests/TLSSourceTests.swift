import DeckTestSupport
@testable import DeckTLS
import Foundation
import Glibc
import Testing

@Suite struct TLSSourceTests {
    let names = SubjectNames(hostNames: ["deck.test"], addresses: ["127.0.0.1", "192.0.2.7"])

    @Test func automaticIsMadeOnceThenKept() throws {
        let folder = try TemporaryDirectory(prefix: "tls-auto")
        defer { folder.remove() }
        let source = TLSSource.automatic(folder: folder.path + "/tls")
        let first = try source.load(names: names)
        #expect(first.notices.count == 1)
        #expect(first.notices[0].contains(first.context.fingerprint))
        #expect(first.context.fingerprint.count == 64)
        #expect(first.context.fingerprint.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        var info = stat()
        #expect(stat(folder.path + "/tls/key.pem", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(folder.path + "/tls", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        let second = try source.load(names: names)
        #expect(second.notices.isEmpty)
        #expect(second.context.fingerprint == first.context.fingerprint)
    }

    @Test func unusableAutomaticFilesAreReplacedWithANotice() throws {
        let folder = try TemporaryDirectory(prefix: "tls-auto-bad")
        defer { folder.remove() }
        let tls = folder.path + "/tls"
        let first = try TLSSource.automatic(folder: tls).load(names: names)
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: tls + "/key.pem"))
        let second = try TLSSource.automatic(folder: tls).load(names: names)
        #expect(second.context.fingerprint != first.context.fingerprint)
        #expect(second.notices.count == 1 && second.notices[0].contains("unusable"))
    }

    @Test func filesThatDoNotMatchAreRefused() throws {
        let a = try TemporaryDirectory(prefix: "tls-a")
        let b = try TemporaryDirectory(prefix: "tls-b")
        defer { a.remove(); b.remove() }
        _ = try TLSSource.automatic(folder: a.path).load(names: names)
        _ = try TLSSource.automatic(folder: b.path).load(names: names)
        #expect(throws: TLSError.keyMismatch(certificate: a.path + "/certificate.pem", key: b.path + "/key.pem")) {
            try TLSSource.files(certificate: a.path + "/certificate.pem", key: b.path + "/key.pem").load()
        }
        do {
            _ = try TLSSource.files(certificate: a.path + "/missing.pem", key: a.path + "/key.pem").load()
            Issue.record("a missing certificate file was accepted")
        } catch {
            guard case let .certificate(path, _) = error else {
                Issue.record("expected a certificate error, got \(error)")
                return
            }
            #expect(path == a.path + "/missing.pem")
            #expect(error.description.contains("--tls-cert"))
            // The errno OpenSSL carries, in words; not its packed code nor "system lib" twice.
            #expect(error.description.contains("(no such file or directory)"), "\(error.description)")
        }
        do {
            _ = try TLSSource.files(certificate: a.path + "/certificate.pem", key: a.path + "/missing-key.pem").load()
            Issue.record("a missing key file was accepted")
        } catch {
            #expect(error == .privateKey(path: a.path + "/missing-key.pem", reason: "no such file or directory"), "\(error)")
        }
    }

    @Test func subjectNamesKeepOnlyDNSNames() {
        #expect(SubjectNames.isDNSName("desk-1.local"))
        #expect(!SubjectNames.isDNSName("a,IP:1.2.3.4"))
        #expect(!SubjectNames.isDNSName(""))
        let machine = SubjectNames.thisMachine()
        #expect(machine.hostNames.contains("localhost"))
        #expect(machine.addresses.contains("127.0.0.1"))
        #expect(!machine.addresses.contains { $0.lowercased().hasPrefix("fe80") })
    }
}
