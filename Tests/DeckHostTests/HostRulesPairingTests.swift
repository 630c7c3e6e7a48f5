import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// `pair` and `unpair` (WEB.md §3, docs/host.md "Devices, tokens and pairing"):
/// the token is on disk before it is shown, with a seeded generator and a fixed clock.
@Suite("HostState rules: pairing")
struct HostRulesPairingTests {
    typealias R = Rules

    static func job(_ actions: [HostAction]) throws -> DiskJob {
        guard actions.count == 1, case .disk(let job) = actions[0] else {
            Issue.record("expected one disk job, got \(actions)")
            throw CancellationError()
        }
        return job
    }

    /// A paired device joined as `pad` on connection 30.
    static func withPad(_ host: inout HostState) -> String {
        let token = host.auth.pair("pad", now: 10).token
        R.join(&host, ConnectionID(rawValue: 30), R.lee, token: token, rules: R.remote)
        return token
    }

    @Test func pairMakesTheTokenThenWritesItWithTheSenderPaused() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
        #expect(host.auth.tokens.devices.map(\.name) == ["pad"])
        #expect(job.work == .saveTokens(host.auth.tokens, path: "/nonexistent/tokens.json") && job.sender == R.control)
    }

    @Test func aWrittenPairShowsTheTokenAndAPairingCodeThatRedeemsOnce() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
        let token = try #require(host.auth.tokens.devices.first?.token)
        let actions = host.handle(.diskFinished(job.id, .saved(.success(()))))
        guard actions.count == 2, case .commit(let commit) = actions[1],
              case let .paired(R.control, .some(1), "pad", shown, code, expires) = commit.outcome.effects.last else {
            Issue.record("expected the log line and the paired reply, got \(actions)")
            return
        }
        #expect(actions[0] == .log(.info, "paired a device as 'pad' by deckctl"))
        #expect(commit.outcome.effects.first == .closeRevoked(pairedAs: "pad"))
        #expect(shown == token && expires == UTCTime.format(1000 + 300))
        #expect(host.auth.pairing.redeem(code, now: R.environment().instantNow()) == "pad")
        #expect(host.auth.pairing.redeem(code, now: R.environment().instantNow()) == nil)
    }

    @Test func theSameSeedDrawsTheSameTokenAndCode() throws {
        func draw() throws -> [HostAction] {
            var host = try R.host(seed: 42)
            let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
            return host.handle(.diskFinished(job.id, .saved(.success(()))))
        }
        #expect(try draw() == draw())
    }

    @Test func anotherSeedDrawsAnotherToken() throws {
        var one = try R.host(seed: 1)
        var two = try R.host(seed: 2)
        _ = one.handle(.request(R.control, R.message(.pair(name: "pad"))))
        _ = two.handle(.request(R.control, R.message(.pair(name: "pad"))))
        #expect(one.auth.tokens.devices.first?.token != two.auth.tokens.devices.first?.token)
    }

    /// Pairing a name again revokes its old token: its connection stops being read, then closes behind its replies.
    @Test func pairingANameAgainRevokesTheConnectionsOfTheOldToken() throws {
        var host = try R.host()
        _ = Self.withPad(&host)
        let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
        let actions = host.handle(.diskFinished(job.id, .saved(.success(()))))
        #expect(actions[0] == .log(.info, "paired a device as 'pad', replacing its old token by deckctl"))
        #expect(actions[1] == .pauseReading(ConnectionID(rawValue: 30), because: .revoked))
        #expect(actions.count == 3)
    }

    @Test func aPairThatCouldNotBeWrittenIsTakenBack() throws {
        var host = try R.host()
        let old = Self.withPad(&host)
        let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
        #expect(host.auth.tokens.devices.first?.token != old)
        let error = HostError.runtime("could not write /s/tokens.json: No space left on device (ENOSPC)")
        #expect(host.handle(.diskFinished(job.id, .saved(.failure(error)))) == [
            R.refused(.internal, "could not save the device tokens: \(error)", request: "pair", by: R.control, who: R.deckctl,
                      paused: false),
        ])
        #expect(host.auth.tokens.devices.map(\.token) == [old])
    }

    @Test func unpairingAnUnknownNameIsNotFoundAndWritesNothing() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.control, R.message(.unpair(name: "ghost")))) == [
            R.refused(.notFound, "no device is paired as 'ghost'", request: "unpair", by: R.control, who: R.deckctl),
        ])
    }

    @Test func unpairForgetsTheTokenAtOnceThenClosesItsConnectionsOnceWritten() throws {
        var host = try R.host()
        _ = Self.withPad(&host)
        let job = try Self.job(host.handle(.request(R.control, R.message(.unpair(name: "pad")))))
        #expect(host.auth.tokens.devices.isEmpty)
        #expect(host.handle(.diskFinished(job.id, .saved(.success(())))) == [
            .log(.info, "unpaired 'pad' by deckctl"),
            .pauseReading(ConnectionID(rawValue: 30), because: .revoked),
            .commit(Commit(Outcome([.closeRevoked(pairedAs: "pad"), .ok(R.control, 1, withRevision: false)]))),
        ])
    }

    @Test func anUnpairThatCouldNotBeWrittenPutsTheTokenBack() throws {
        var host = try R.host()
        let token = Self.withPad(&host)
        let job = try Self.job(host.handle(.request(R.control, R.message(.unpair(name: "pad")))))
        let error = HostError.runtime("disk full")
        let actions = host.handle(.diskFinished(job.id, .saved(.failure(error))))
        #expect(host.auth.tokens.devices.map(\.token) == [token])
        #expect(actions == [R.refused(.internal, "could not save the device tokens: \(error)", request: "unpair", by: R.control,
                                      who: R.deckctl, paused: false)])
    }

    /// The sender left while the write failed: the change is still taken back, and no one is answered.
    @Test func aFailedWriteForASenderThatLeftIsTakenBackSilently() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.pair(name: "pad")))))
        host.sessions[R.control] = nil
        #expect(host.handle(.diskFinished(job.id, .saved(.failure(HostError.runtime("disk full"))))).isEmpty)
        #expect(host.auth.tokens.devices.isEmpty)
    }
}
