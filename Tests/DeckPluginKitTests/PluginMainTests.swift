import DeckPluginKit
import Dispatch
import Foundation
import Synchronization
import Testing

/// `PluginMain.run` over real pipes, with the host's side played by the test.
@Suite struct PluginMainTests {
    /// A plugin running `handle` on its own thread, its input and output on pipes.
    final class RunningPlugin: Sendable {
        let toPlugin: FileHandle
        let fromPlugin: FileHandle
        private let ended = DispatchSemaphore(value: 0)
        private let ending = Mutex<PluginMain.Ending?>(nil)
        let seen = Mutex<[PluginEvent]>([])

        init(maximumLineBytes: Int = 16 << 20, _ handle: @escaping @Sendable (PluginEvent, PluginConnection) throws -> Void) {
            let input = Pipe(), output = Pipe()
            toPlugin = input.fileHandleForWriting
            fromPlugin = output.fileHandleForReading
            let (readEnd, writeEnd) = (input.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor)
            let keep = (input, output)
            Thread.detachNewThread { [self] in
                let result = PluginMain.run(input: readEnd, output: writeEnd, maximumLineBytes: maximumLineBytes) { event, plugin in
                    self.seen.withLock { $0.append(event) }
                    try handle(event, plugin)
                }
                ending.withLock { $0 = result }
                try? keep.1.fileHandleForWriting.close()  // the plugin's output ends with it
                ended.signal()
            }
        }

        func send(_ text: String) {
            write(Data((text + "\n").utf8))
        }

        func send(_ event: PluginEvent) {
            write(Data(event.line()))
        }

        /// A plugin that has ended has closed its input, and some tests send after
        /// its shutdown on purpose: that write fails with EPIPE, which the legacy
        /// `write(_:)` turns into a crash of the whole test process (seen under
        /// ThreadSanitizer). What the plugin received is asserted from `seen`.
        private func write(_ data: Data) {
            try? toPlugin.write(contentsOf: data)
        }

        /// Everything the plugin wrote until it ended.
        func finish(timeout: Double = 10) throws -> (ending: PluginMain.Ending?, messages: [PluginMessage]) {
            #expect(ended.wait(timeout: .now() + timeout) == .success, "the plugin loop returns")
            let data = fromPlugin.readDataToEndOfFile()
            let messages = try data.split(separator: 0x0A).map { try PluginMessage(line: Array($0)) }
            return (ending.withLock { $0 }, messages)
        }
    }

    static let hello = PluginEvent.hello(PluginHello(hostName: "deckd", hostVersion: "0.1.0", plugin: "counter"))
    static let button = PluginButtonReference(page: 0, index: 3, name: "Count")

    @Test func readyAfterHelloThenEventsInOrderUntilShutdown() throws {
        let plugin = RunningPlugin { event, plugin in
            if case .press(let press) = event { plugin.setTitle("\(press.phase.rawValue)", for: press.button) }
        }
        plugin.send(Self.hello)
        plugin.send(.buttons([PluginButton(page: 0, index: 3, name: "Count", command: "increment")]))
        for phase in [PluginPress.Phase.down, .up, .tap] {
            plugin.send(.press(PluginPress(phase: phase, command: "increment", button: Self.button, device: nil)))
        }
        plugin.send(.shutdown)
        plugin.send(.press(PluginPress(phase: .tap, command: "after", button: Self.button, device: nil)))
        let (ending, messages) = try plugin.finish()
        #expect(ending == .shutdown)
        #expect(messages == [.ready, .setTitle(page: 0, index: 3, title: "down"), .setTitle(page: 0, index: 3, title: "up"),
                             .setTitle(page: 0, index: 3, title: "tap")])
        #expect(plugin.seen.withLock { $0.count } == 6, "nothing after shutdown reaches the plugin")
    }

    @Test func skipsUnknownEventsAndReportsBrokenLines() throws {
        let plugin = RunningPlugin { _, _ in }
        plugin.send(Self.hello)
        plugin.send(#"{"event":"somethingNew","x":1}"#)
        plugin.send("garbage")
        plugin.send("")
        plugin.send(#"{"event":"press"}"#)
        try plugin.toPlugin.close()
        let (ending, messages) = try plugin.finish()
        #expect(ending == .endOfInput)
        #expect(messages.count == 3)
        #expect(messages.first == .ready)
        for message in messages.dropFirst() {
            guard case .log(.warning, let text) = message else {
                Issue.record("expected a warning, got \(message)")
                continue
            }
            #expect(text.hasPrefix("could not read a line from the host"))
        }
        #expect(plugin.seen.withLock { $0 } == [Self.hello])
    }

    @Test func longLinesAreSkipped() throws {
        let plugin = RunningPlugin(maximumLineBytes: 1000) { _, _ in }
        plugin.send(Self.hello)
        plugin.send(String(repeating: "y", count: 5000))
        plugin.send(.shutdown)
        let (ending, messages) = try plugin.finish()
        #expect(ending == .shutdown)
        #expect(messages.count == 2)
        if case .log(.warning, let text) = messages.last {
            #expect(text.contains("longer than 1000 bytes"))
        } else {
            Issue.record("expected a warning about the long line")
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "no config" }
    }

    @Test func errorsOfTheHandlerAreLogged() throws {
        let plugin = RunningPlugin { event, _ in
            if case .press = event { throw Refused() }
        }
        plugin.send(Self.hello)
        plugin.send(.press(PluginPress(phase: .tap, command: "x", button: Self.button, device: nil)))
        plugin.send(.shutdown)
        let (ending, messages) = try plugin.finish()
        #expect(ending == .shutdown)
        #expect(messages == [.ready, .log(level: .error, message: "press failed: no config")])
    }

    @Test func aFailingHelloSendsNoReady() throws {
        let plugin = RunningPlugin { event, _ in
            if case .hello = event { throw Refused() }
        }
        plugin.send(Self.hello)
        let (ending, messages) = try plugin.finish()
        #expect(ending == .helloFailed("no config"))
        #expect(ending?.exitStatus == 1)
        #expect(messages == [.log(level: .error, message: "hello failed: no config")])
    }

    @Test func connectionKeepsTheHostsState() throws {
        let plugin = RunningPlugin { event, plugin in
            if case .press = event {
                plugin.log("\(plugin.plugin) has \(plugin.buttons.count) buttons", level: .debug)
            }
        }
        plugin.send(Self.hello)
        plugin.send(.buttons([PluginButton(page: 0, index: 3, name: "Count", command: "increment"),
                              PluginButton(page: 1, index: 0, name: "Reset", command: "reset")]))
        plugin.send(.press(PluginPress(phase: .tap, command: "x", button: Self.button, device: nil)))
        plugin.send(.shutdown)
        let (_, messages) = try plugin.finish()
        #expect(messages == [.ready, .log(level: .debug, message: "counter has 2 buttons")])
    }
}
