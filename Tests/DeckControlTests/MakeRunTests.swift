import Foundation
import Testing

/// `make run`, as the README's "Run the host" uses it: the host and the
/// deckctl the README then tells a newcomer to use from `.build/debug/`.
@Suite("make run")
struct MakeRunTests {
    /// `make -n run`: what it would do, without building or starting anything.
    @Test func buildsDeckctlTooAndNamesWhereItIs() throws {
        let plan = try ProcessRun.run("/usr/bin/env", ["make", "--no-print-directory", "-n", "-C", InstallTests.repository, "run"])
        #expect(plan.status == 0, "\(plan.err)")
        let lines = plan.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for product in ["deckd", "deckctl", "deck-plugin-counter", "deck-plugin-media"] {
            #expect(lines.contains { $0.hasSuffix("build --product \(product)") }, "make run does not build \(product)")
        }
        // The hint it prints must work as it is typed: deckctl is not on PATH after `make run`.
        #expect(plan.out.contains("try  .build/debug/deckctl --control .state/control.sock status"))
    }

    /// The README's first step serves the network with TLS: the page to open here is 127.0.0.1's (a page
    /// under the name 0.0.0.0 is not trusted as this machine's and was refused), and devices speak TLS.
    @Test(arguments: [("0.0.0.0:7532", "127.0.0.1:7532"), ("[::]:7000", "127.0.0.1:7000"), ("192.0.2.7:7532", "192.0.2.7:7532")])
    func theAddressToOpenIsOneThisMachineAnswersAsItself(_ web: String, _ shown: String) throws {
        let plan = try ProcessRun.run("/usr/bin/env", ["make", "--no-print-directory", "-n", "-C", InstallTests.repository, "run",
                                                       "WEB=\(web)", "DECKD_ARGS=--tls auto"])
        #expect(plan.status == 0, "\(plan.err)")
        #expect(plan.out.contains("make run: open https://\(shown)/ in a browser"), "\(plan.out)")
        #expect(plan.out.contains("devices connect to 127.0.0.1:7531 (TLS)"))
    }
}
