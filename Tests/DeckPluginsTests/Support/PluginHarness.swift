import DeckModel
import DeckPluginKit
@testable import DeckPlugins
import DeckProtocol
import DeckTestSupport
import DeckTransport
import Foundation
import Synchronization
import Testing

/// A `PluginManager` on its own event loop, with plugins written into a
/// temporary plugins folder, and everything it reports recorded.
final class PluginHarness: Sendable {
    /// What the manager reported, in order.
    struct Record: Sendable {
        var logs: [(level: PluginLogLevel, message: String)] = []
        var titles: [(page: Int, index: Int, title: String?)] = []
        var statuses: [PluginStatus] = []
        var results: [String: PluginPressResult] = [:]
        var stopped = false
    }

    /// The record, shared with the callbacks on the loop.
    final class Recorder: Sendable {
        private let state = Mutex(Record())

        func withLock<T>(_ body: (inout Record) -> T) -> T {
            state.withLock { body(&$0) }
        }
    }

    let folder: TemporaryDirectory
    let loop: EventLoop
    let record = Recorder()
    private let bound: Mutex<LoopBound<PluginManager>?> = Mutex(nil)

    /// Short timings, so restarts and timeouts take milliseconds.
    static var fastPolicy: PluginPolicy {
        var policy = PluginPolicy()
        // Short enough for a test, long enough for python3 to start on a loaded
        // 2-core machine (800 ms was not: a plugin was restarted mid-test).
        policy.readyTimeout = .seconds(3)
        policy.firstRestartDelay = .milliseconds(40)
        policy.maximumRestartDelay = .milliseconds(320)
        policy.shutdownGrace = .milliseconds(300)
        policy.killGrace = .milliseconds(300)
        policy.titleInterval = .milliseconds(20)
        return policy
    }

    init(plugins: [TestPlugin], policy: PluginPolicy = PluginHarness.fastPolicy, extraFolders: [String] = []) throws {
        folder = try TemporaryDirectory(prefix: "plugins")
        for plugin in plugins { try plugin.install(in: folder.path) }
        loop = try EventLoop.spawn(name: "plugin-test-loop")
        let folders = [folder.path] + extraFolders
        let record = self.record
        let loop = self.loop
        let made = try loop.sync {
            let events = PluginManager.Events(
                log: { level, message in record.withLock { $0.logs.append((level, message)) } },
                titleChanged: { page, index, title in record.withLock { $0.titles.append((page, index, title)) } },
                statusChanged: { status in record.withLock { $0.statuses.append(status) } })
            let manager = PluginManager(loop: loop, folders: folders, searchPath: ProcessInfo.processInfo.environment["PATH"],
                                        hostName: "deckd", hostVersion: "test", policy: policy, events: events)
            return LoopBound(manager, loop: loop)
        }
        bound.withLock { $0 = made }
    }

    deinit {
        stop()
    }

    /// Shuts every plugin down and stops the loop (idempotent).
    func stop() {
        guard let bound = bound.withLock({ value in defer { value = nil }; return value }) else { return }
        let record = self.record
        _ = try? loop.sync {
            bound.value.shutdown { record.withLock { $0.stopped = true } }
        }
        _ = wait(timeout: 10) { $0.stopped }
        loop.stop()
        loop.waitUntilStopped()
    }

    /// Runs `body` with the manager on the loop thread.
    @discardableResult
    func withManager<T: Sendable>(_ body: @escaping @Sendable (PluginManager) throws -> T) throws -> T {
        guard let bound = bound.withLock({ $0 }) else { throw HarnessStopped() }
        return try loop.sync { try body(bound.value) }
    }

    struct HarnessStopped: Error {}

    /// Makes `layout` live as the host does: every plugin whose buttons
    /// changed is told its buttons, and the plugins with buttons in it start.
    func show(_ layout: DeckLayout) throws {
        try withManager { manager in
            let buttons = layout.pluginButtons
            for id in Set(buttons.keys).union(manager.liveButtons.keys).sorted()
            where (buttons[id] ?? []) != (manager.liveButtons[id] ?? []) {
                manager.setButtons(buttons[id] ?? [], for: id)
            }
        }
    }

    /// Presses the plugin button at `page`/`index` of `layout`; the result is
    /// recorded under `tag`.
    func press(_ layout: DeckLayout, page: Int, index: Int, phase: PluginPress.Phase = .tap, tag: String) throws {
        guard let button = layout.pages[page].buttons[index], case let .plugin(id, command, settings) = button.action else {
            throw HarnessStopped()
        }
        let press = PluginPress(phase: phase, command: command, settings: settings ?? [:],
                                button: PluginButtonReference(page: page, index: index, name: button.name),
                                device: PluginDevice(name: "test", kind: "terminal"))
        let record = self.record
        try withManager { $0.press(plugin: id, press) { result in record.withLock { $0.results[tag] = result } } }
    }

    /// Waits until `condition` holds for the record (checked every 5 ms).
    @discardableResult
    func wait(timeout: Double = 10, until condition: (Record) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        // The condition sees a copy, so it may look at the record again itself.
        while Date() < deadline {
            if condition(record.withLock { $0 }) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition(record.withLock { $0 })
    }

    /// The latest status of plugin `id`.
    func status(_ id: String) throws -> PluginStatus? {
        try withManager { manager in manager.statuses.first { $0.id == id } }
    }

    /// The log lines, joined, for failure messages.
    var logText: String {
        record.withLock { $0.logs.map { "\($0.level.rawValue) \($0.message)" }.joined(separator: "\n") }
    }

    /// Waits until a log line contains `fragment`.
    func waitForLog(_ fragment: String, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.logs.contains { $0.message.contains(fragment) } }
    }

    func logged(_ fragment: String) -> Bool {
        record.withLock { $0.logs.contains { $0.message.contains(fragment) } }
    }
}

/// A plugin folder written for a test: a manifest and a script.
struct TestPlugin: Sendable {
    var id: String
    /// The script's text (its first line is the `#!` line).
    var script: String
    var folderName: String?

    /// A POSIX sh plugin.
    static func sh(_ id: String, _ body: String) -> TestPlugin {
        TestPlugin(id: id, script: "#!/bin/sh\n" + body + "\n")
    }

    /// A python3 plugin (python3 from /usr/bin when there, else from PATH).
    static func python(_ id: String, _ body: String) -> TestPlugin {
        let interpreter = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/bin/env python3"
        return TestPlugin(id: id, script: "#!\(interpreter)\n" + body + "\n")
    }

    func install(in plugins: String) throws {
        let folder = URL(fileURLWithPath: plugins).appendingPathComponent(folderName ?? id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written close-on-exec: Data.write's descriptor is not, and a child
        // another test started meanwhile (a deckd, a `sleep 100` plugin) kept
        // it open for writing, so spawning this script failed with ETXTBSY
        // ("Text file busy") for as long as that child lived.
        let program = folder.appendingPathComponent("plugin").path
        let fd = open(program, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: program]) }
        defer { close(fd) }
        let bytes = Array(script.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: program]) }
        try Data("id: \(id)\nexec: [./plugin]\n".utf8).write(to: folder.appendingPathComponent("plugin.yaml"))
    }
}

/// Layouts with plugin buttons.
enum PluginLayouts {
    /// One page whose first slots hold the given plugin buttons.
    static func with(_ buttons: [(id: String, command: String)], slots: Int = 12) throws -> DeckLayout {
        var page = DeckPage.empty(slots: slots)
        for (index, entry) in buttons.enumerated() {
            page.buttons[index] = DeckButton(name: "\(entry.id) \(index)", action: .plugin(id: entry.id, command: entry.command))
        }
        return try DeckLayout(slotsPerPage: slots, pages: [page])
    }
}
