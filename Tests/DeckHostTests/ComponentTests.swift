import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing
@testable import DeckHost

/// A hello's whole way in one step, for the handshake's own tests: the
/// machine's `receive`, then the verdict on the credentials the test
/// answers (HostState asks DeviceAuth there), settled back into the machine.
enum HandshakeStep: Equatable {
    case establish(id: RequestID?, access: ClientAccess, device: Device, pairedName: String?, byCode: Bool = false)
    case refuseAndClose(ProtocolError, failedToken: Bool)
    case request(ClientMessage)
    case refuse(ProtocolError)
}

extension Handshake {
    mutating func step(_ line: some Collection<UInt8>, rules: Rules,
                       authenticate: (Hello, _ required: Bool) -> DeviceAuth.Decision) -> HandshakeStep {
        switch receive(line, rules: rules) {
        case .authenticate(let attempt):
            switch Handshake.verdict(attempt, authenticate(attempt.hello, attempt.rules.needsToken)) {
            case let .establish(id, access, device, pairedName, byCode):
                admit(access)
                return .establish(id: id, access: access, device: device, pairedName: pairedName, byCode: byCode)
            case let .refuse(error, failedToken):
                close()
                return .refuseAndClose(error, failedToken: failedToken)
            }
        case .refuseAndClose(let error): return .refuseAndClose(error, failedToken: false)
        case .request(let message): return .request(message)
        case .refuse(let error): return .refuse(error)
        }
    }

    /// With fixed answers: the address is blocked, a token's device, a code's device.
    mutating func step(_ line: some Collection<UInt8>, rules: Rules, attemptsBlocked: Bool,
                       pairedName: (String) -> String?, redeem: (String) -> String? = { _ in nil }) -> HandshakeStep {
        step(line, rules: rules) { hello, required in
            if let code = hello.pairingCode {
                if attemptsBlocked { return .blocked }
                return redeem(code).map { .acceptedByCode(pairedName: $0) } ?? .invalidCode
            }
            if required && attemptsBlocked { return .blocked }
            let name = hello.token.flatMap(pairedName)
            guard required, name == nil else { return .accepted(pairedName: name) }
            return hello.token == nil ? .noToken : .invalidToken
        }
    }
}

@Suite("Handshake state machine")
struct HandshakeTests {
    static let tcp = Handshake.Rules(isControlSocket: false, peerIsLoopback: true, requireToken: false)
    static let remote = Handshake.Rules(isControlSocket: false, peerIsLoopback: false, requireToken: false)
    static let control = Handshake.Rules(isControlSocket: true, peerIsLoopback: true, requireToken: true)

    static func hello(kind: String = "phone", level: Int = 7, token: String? = nil) -> [UInt8] {
        ClientMessage(id: 1, .hello(Hello(protocolLevel: level, device: Device(name: "n", kind: kind), token: token))).line()
    }

    func code(_ action: HandshakeStep) -> ErrorCode? {
        switch action {
        case .refuseAndClose(let error, _), .refuse(let error): error.code
        default: nil
        }
    }

    @Test func loopbackNeedsNoTokenAndThenRequestsAreDecodedWithItsRights() {
        var handshake = Handshake()
        let action = handshake.step(Self.hello(level: 9), rules: Self.tcp, attemptsBlocked: false) { _ in nil }
        #expect(action == .establish(id: 1, access: ClientAccess(level: 8, isControl: false),
                                     device: Device(name: "n", kind: "phone"), pairedName: nil))
        let status = handshake.step(ClientMessage(id: 2, .status).line(), rules: Self.tcp, attemptsBlocked: false) { _ in nil }
        #expect(code(status) == .unauthorized)
        let ping = handshake.step(ClientMessage(id: 3, .ping).line(), rules: Self.tcp, attemptsBlocked: false) { _ in nil }
        #expect(ping == .request(ClientMessage(id: 3, .ping)))
        #expect(code(handshake.step(Self.hello(), rules: Self.tcp, attemptsBlocked: false) { _ in nil }) == .handshake)
    }

    @Test func remotePeersNeedAValidTokenAndFailuresCount() {
        var missing = Handshake()
        guard case .refuseAndClose(let absent, true) = missing.step(Self.hello(), rules: Self.remote, attemptsBlocked: false,
                                                                       pairedName: { _ in nil }) else {
            Issue.record("a missing token must be refused and counted"); return
        }
        #expect(absent.code == .unauthorized && absent.message.contains("deckctl pair"))
        var wrong = Handshake()
        guard case .refuseAndClose(let error, true) = wrong.step(Self.hello(token: "x"), rules: Self.remote, attemptsBlocked: false, pairedName: { _ in nil }) else {
            Issue.record("a wrong token must be refused and counted"); return
        }
        #expect(error.code == .unauthorized && error.id == 1)
        var blocked = Handshake()
        guard case .refuseAndClose(let refusal, false) = blocked.step(Self.hello(token: "good"), rules: Self.remote, attemptsBlocked: true,
                                                                         pairedName: { _ in "kim" }) else {
            Issue.record("a blocked address is refused without comparing"); return
        }
        #expect(refusal.message.contains("too many"))
        var good = Handshake()
        guard case .establish(_, _, _, "kim", false) = good.step(Self.hello(token: "good"), rules: Self.remote, attemptsBlocked: false,
                                                             pairedName: { $0 == "good" ? "kim" : nil }) else {
            Issue.record("a good token is accepted"); return
        }
    }

    @Test func controlKindOnlyOnTheControlSocketAndFirstLineRules() {
        var onTCP = Handshake()
        #expect(code(onTCP.step(Self.hello(kind: "control"), rules: Self.tcp, attemptsBlocked: false) { _ in nil }) == .unauthorized)
        var onSocket = Handshake()
        guard case .establish(_, let access, _, nil, false) = onSocket.step(Self.hello(kind: "control"), rules: Self.control,
                                                                        attemptsBlocked: false, pairedName: { _ in nil }) else {
            Issue.record("control on the control socket needs no token"); return
        }
        #expect(access.isControl)
        var notHello = Handshake()
        #expect(code(notHello.step(ClientMessage(id: 1, .ping).line(), rules: Self.tcp, attemptsBlocked: false) { _ in nil }) == .handshake)
        var tooOld = Handshake()
        #expect(code(tooOld.step(Self.hello(level: 0), rules: Self.tcp, attemptsBlocked: false) { _ in nil }) == .unsupported)
        #expect(code(tooOld.step(Self.hello(), rules: Self.tcp, attemptsBlocked: false) { _ in nil }) == .handshake)
    }
}

@Suite("Commit pipeline (group commit, ordering, failures)")
struct CommitPipelineTests {
    typealias Pipeline = CommitPipeline<String, Int, String>
    struct DiskFull: Error {}

    func performed(_ actions: [Pipeline.Action]) -> [String] {
        actions.compactMap { if case .perform(let name, _) = $0 { name } else { nil } }
    }
    func failed(_ actions: [Pipeline.Action]) -> [String] {
        actions.compactMap { if case .fail(let name, _) = $0 { name } else { nil } }
    }
    func batches(_ actions: [Pipeline.Action]) -> [[Int]] {
        actions.compactMap { if case .write(let batch) = $0 { batch } else { nil } }
    }

    @Test func noWriteOutcomesGoAtOnceWhenNothingWaits() {
        var pipeline = Pipeline()
        #expect(performed(pipeline.submit("pong")) == ["pong"])
        #expect(pipeline.isEmpty)
    }

    @Test func writesAreGroupedAndEverythingIsPerformedInOrderAfterItsWrite() {
        var pipeline = Pipeline()
        #expect(batches(pipeline.submit("edit1", write: 1)) == [[1]])
        #expect(pipeline.submit("stale-refusal").isEmpty)   // waits behind edit1
        #expect(pipeline.submit("edit2", write: 2).isEmpty)  // accumulates while 1 is written
        #expect(pipeline.submit("edit3", write: 3).isEmpty)
        let first = pipeline.batchFinished(receipts: ["g1"], failure: nil)
        #expect(performed(first) == ["edit1", "stale-refusal"])
        #expect(batches(first) == [[2, 3]])
        #expect(pipeline.submit("pong").isEmpty)
        let second = pipeline.batchFinished(receipts: ["g2", "g3"], failure: nil)
        #expect(performed(second) == ["edit2", "edit3", "pong"])
        #expect(pipeline.isEmpty && !pipeline.isWriting)
    }

    @Test func aFailedWriteFailsItAndEveryWriteAfterItButKeepsTheWrittenPrefix() {
        var pipeline = Pipeline(maximumBatch: 2)
        _ = pipeline.submit("e1", write: 1)
        _ = pipeline.submit("e2", write: 2)
        _ = pipeline.submit("e3", write: 3)
        _ = pipeline.submit("refusal")
        _ = pipeline.submit("e4", write: 4)
        #expect(batches(pipeline.batchFinished(receipts: ["g1"], failure: nil)) == [[2, 3]])
        let actions = pipeline.batchFinished(receipts: ["g2"], failure: DiskFull())
        #expect(performed(actions) == ["e2", "refusal"])
        #expect(failed(actions) == ["e3", "e4"])
        #expect(batches(actions).isEmpty && pipeline.isEmpty)
    }
}

@Suite("Small parts: limiter, tokens, arguments, layout lines")
struct HostPartsTests {
    @Test func theLimiterUsesASlidingWindowPerAddress() {
        var limiter = FailedAttemptLimiter(limit: 3, window: .seconds(60), capacity: 2)
        let start = ContinuousClock.now
        for second in 0..<3 { limiter.recordFailure("10.0.0.1", now: start + .seconds(second)) }
        let blocked = limiter.isBlocked("10.0.0.1", now: start + .seconds(10))
        let other = limiter.isBlocked("10.0.0.2", now: start + .seconds(10))
        let later = limiter.isBlocked("10.0.0.1", now: start + .seconds(60.5))  // the first failure left the window
        #expect(blocked && !other && !later)
        limiter.recordFailure("a", now: start)
        limiter.recordFailure("b", now: start)
        #expect(limiter.trackedAddresses <= 2)
    }

    @Test func tokensAreRandomReplaceableAndSavedPrivately() throws {
        var store = TokenStore()
        let first = store.pair("kim", now: 0)
        let second = store.pair("kim", now: 0)
        #expect(first != second && first.count == 43 && !first.contains("="))
        #expect(store.name(forToken: first) == nil && store.name(forToken: second) == "kim")
        #expect(store.name(forToken: String(second.dropLast())) == nil)
        let folder = try TemporaryDirectory(prefix: "tokens")
        let path = folder.path + "/tokens.json"
        try Data("half a save".utf8).write(to: URL(fileURLWithPath: path + ".tmp"))  // a crash's leftover
        try TokenStore.save(store, path: path)
        #expect(try TokenStore.load(path: path).store == store)
        try Data("half a save".utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        _ = try TokenStore.load(path: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tokens.json"], "no leftover after a save or a start")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: HostError.self) { try TokenStore.load(path: path) }
        #expect(store.unpair("kim") && !store.unpair("kim"))
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    /// CLI.md: errors are plain sentences, never Swift's words for a decoding failure.
    @Test func aDamagedTokensFileIsSaidPlainly() throws {
        let folder = try TemporaryDirectory(prefix: "tokens")
        let path = folder.path + "/tokens.json"
        let cases = [
            ("{not json", "it is not valid JSON"),
            ("", "it is empty"),
            (#"{"format":"deck-tokens","version":1}"#, "'devices' is missing"),
            (#"{"format":"deck-tokens","version":1,"devices":[{"name":"a","created":"x"}]}"#, "'devices[0].token' is missing"),
            (#"{"format":"deck-tokens","version":1,"devices":"x"}"#, "'devices' has the wrong type"),
            (#"{"format":"deck-tokens","version":1,"devices":[{"name":null,"token":"t","created":"x"}]}"#, "'devices[0].name' is null"),
            ("[]", "it is not a JSON object"),
        ]
        for (text, reason) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: HostError.configuration("the device tokens file \(path) is damaged (\(reason)); "
                + "fix it, or delete it and pair the devices again")) { try TokenStore.load(path: path) }
        }
    }

    @Test func argumentsDefaultsAndMistakes() throws {
        let environment = ["HOME": "/home/kim", "XDG_RUNTIME_DIR": "/run/user/1000"]
        guard case .run(let defaults) = try HostArguments.parse([], environment: environment) else { Issue.record("no run"); return }
        #expect(defaults.layouts == "/home/kim/.config/deckd/layouts")
        #expect(defaults.state == "/home/kim/.local/state/deckd")
        #expect(defaults.control == "/run/user/1000/deckd/control.sock")
        #expect(defaults.listen == "127.0.0.1:7531" && defaults.keep == 100 && defaults.maxMessage == 1 << 20)
        #expect(defaults.plugins == ["/home/kim/.local/share/deckd/plugins"])
        #expect(defaults.maxRunningActions == 16 && defaults.maxQueuedActions == 256)
        guard case .run(let plugins) = try HostArguments.parse(["--plugins", "/a", "--plugins=b", "--plugin-restart-delay", "50"],
                                                               environment: environment) else { Issue.record("no run"); return }
        #expect(plugins.plugins == ["/a", "b"], "given folders replace the default and add up")
        #expect(plugins.pluginPolicy.firstRestartDelay == .milliseconds(50) && plugins.pluginPolicy.maximumRestartDelay == .seconds(3))
        guard case .run(let custom) = try HostArguments.parse(["--no-tcp", "--keep=5", "--log-level", "debug", "--require-token"],
                                                              environment: [:]) else { Issue.record("no run"); return }
        #expect(custom.listen == nil && custom.keep == 5 && custom.logLevel == .debug && custom.requireToken)
        #expect(custom.control.hasPrefix("/tmp/deckd-"))
        for bad in [["--listen", "nope"], ["--keep", "0"], ["--frob"], ["--layouts"], ["--log-level", "loud"], ["extra"],
                    ["--plugins", ""], ["--max-running-actions", "0"]] {
            #expect(throws: HostError.self) { try HostArguments.parse(bad, environment: [:]) }
        }
        if case .help(let text) = try HostArguments.parse(["--help"], environment: [:]) {
            #expect(text.contains("--require-token"))
            // What a first start trips over, and what SIGHUP does (docs/host.md, "Signals").
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("one given here must exist") && words.contains("created when missing") && words.contains("SIGHUP re-reads the profile files, the plugins folders and the --tls-cert/--tls-key files"))
        } else {
            Issue.record("--help")
        }
    }

    @Test(arguments: [1, 7, 40])
    func aWelcomeFromTheEncodedRevisionIsTheSameBytesAsAnEncodedOne(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let layout = RandomLayouts.layout(using: &generator)
        let state = LiveState(profile: "스트림 \"x\"", revision: seed * 1000, layout: layout, source: nil)
        let lines = try LayoutLines(state)
        let host = HostInfo(version: "0.1.0")
        for id: RequestID? in [nil, 5, "a\"b"] {
            let spliced = lines.welcome(id: id, level: 7, host: host, locked: seed == 7)
            let encoded = HostMessage.welcome(id: id, Welcome(protocolLevel: 7, host: host, profile: state.profile,
                                                              revision: state.revision, locked: seed == 7, layout: layout)).line()
            #expect(spliced == encoded)
        }
        #expect(lines.broadcast.data == Data(HostMessage.layout(profile: state.profile, revision: state.revision, layout: layout).line()))
    }
}
