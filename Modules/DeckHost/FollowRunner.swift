import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckTransport
import Glibc

/// Runs the live layout's `follow` commands on the event loop, performing
/// what ``FollowMachine`` (held by ``HostState``) decides: children started
/// with `/bin/sh -c` in a process group of their own, their output read line
/// by line without blocking, their exit seen on a pidfd, timers for restarts
/// and kills. What it sees goes back to the rules as ``FollowInput``s.
/// Confined to the loop's thread.
final class FollowRunner {
    /// Longest follow line read (a title needs little more than a word).
    static let lineLimit = 4096

    private final class Child {
        let child: SpawnedChild
        var lines = LineSplitter(limit: FollowRunner.lineLimit)
        var errorLines = LineSplitter(limit: FollowRunner.lineLimit)
        var watches: [FDWatch] = []
        var poll: LoopTimer?
        init(_ child: SpawnedChild) { self.child = child }
    }

    private let loop: EventLoop
    /// Where what it sees goes: `.follow` inputs, and `.log` for its own trouble and a child's error output.
    private let inbox: HostInbox
    private let home: String?
    private var children: [FollowMachine.ID: Child] = [:]
    private var buffer = [UInt8](repeating: 0, count: 8192)

    init(loop: EventLoop, home: String?, inbox: HostInbox) {
        self.loop = loop
        self.home = home
        self.inbox = inbox
    }

    deinit {
        // A safety net (the host calls killNow() on its loop): no follow outlives the runner or stays a zombie.
        for child in children.values {
            _ = Glibc.kill(-child.child.pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(child.child.pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// SIGKILL to every child left and a reap (immediate after SIGKILL): for
    /// the very end of the host, so no follow outlives it.
    func killNow() {
        for (id, child) in children {
            _ = Glibc.kill(-child.child.pid, SIGKILL)
            finish(id, child)
        }
    }

    /// Performs one of the machine's actions (faces and log lines are the rules' own).
    func perform(_ action: FollowMachine.Action) {
        switch action {
        case let .spawn(id, spec): spawn(id, spec)
        case .terminate(let id): if let child = children[id] { _ = Glibc.kill(-child.child.pid, SIGTERM) }
        case .kill(let id): if let child = children[id] { _ = Glibc.kill(-child.child.pid, SIGKILL) }
        case let .wake(id, delay):
            loop.schedule(after: delay) { [inbox] in inbox.post(.follow(.timer(id))) }
        case .face, .log, .problemsChanged: break
        }
    }

    private func spawn(_ id: FollowMachine.ID, _ spec: FollowSpec) {
        let spawned: SpawnedChild
        do {
            spawned = try SpawnedChild.spawn(["/bin/sh", "-c", spec.command],
                                             workingDirectory: spec.cwd.map { expandingTilde($0, home: home) })
        } catch {
            inbox.post(.follow(.exited(id, how: "could not be started (\(error.reason))")))
            return
        }
        let child = Child(spawned)
        children[id] = child
        do {
            child.watches.append(try loop.watchReadable(spawned.output) { [weak self] in self?.read(id, error: false) })
            child.watches.append(try loop.watchReadable(spawned.errors) { [weak self] in self?.read(id, error: true) })
            if spawned.exitDescriptor >= 0 {
                child.watches.append(try loop.watchReadable(spawned.exitDescriptor) { [weak self] in self?.checkExit(id) })
            } else {
                pollExit(id)
            }
        } catch {
            inbox.post(.log(.error, "could not watch the follow of \(spec.described): \(error)"))
            _ = Glibc.kill(-spawned.pid, SIGKILL)
            pollExit(id)
        }
    }

    /// Kernels without pidfd: look for the exit on a timer.
    private func pollExit(_ id: FollowMachine.ID) {
        children[id]?.poll = loop.schedule(after: .milliseconds(100)) { [weak self] in self?.checkExit(id) }
    }

    /// Reads one buffer's worth; true when it read something.
    @discardableResult
    private func read(_ id: FollowMachine.ID, error: Bool) -> Bool {
        guard let child = children[id] else { return false }
        let fd = error ? child.child.errors : child.child.output
        // One buffer's worth per turn: the watch is level-triggered, so a chatty follow cannot hold the loop.
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            var said: [Substring?] = []
            buffer.withUnsafeBufferPointer { bytes in
                let piece = UnsafeBufferPointer(rebasing: bytes[0..<count])
                let each: (LineSplitter.Piece) -> Void = { piece in
                    switch piece {
                    case .line(let line): said.append(Substring(decoding: line, as: UTF8.self))
                    case .tooLong: said.append(nil)
                    }
                }
                if error { child.errorLines.append(piece, each) } else { child.lines.append(piece, each) }
            }
            for line in said {
                if error {
                    inbox.post(.log(.debug, "follow \(id) wrote to its error output: \(line.map { String($0.prefix(200)) } ?? "(a long line)")"))
                } else {
                    inbox.post(.follow(.line(id, line.map(String.init))))
                }
            }
            return true
        }
        if count == 0 || (errno != EAGAIN && errno != EINTR) {
            // End of output: stop watching it; the exit comes on its own descriptor.
            child.watches.first { $0.fileDescriptor == fd }?.cancel()
        }
        return false
    }

    private func checkExit(_ id: FollowMachine.ID) {
        guard let child = children[id] else { return }
        var info = siginfo_t()
        // WNOWAIT: look without reaping, so the group is still this child's while it is killed.
        guard waitid(P_PID, id_t(child.child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
              info._sifields._sigchld.si_pid == child.child.pid else {
            if child.child.exitDescriptor < 0 { pollExit(id) }
            return
        }
        // What it wrote before it ended still counts (bounded: something it started may write on).
        for _ in 0..<16 where read(id, error: false) {}
        _ = Glibc.kill(-child.child.pid, SIGKILL)
        let how = finish(id, child)
        inbox.post(.follow(.exited(id, how: how)))
    }

    /// Reaps the child, closes its descriptors and forgets it; says how it ended.
    @discardableResult
    private func finish(_ id: FollowMachine.ID, _ child: Child) -> String {
        var status: Int32 = 0
        while waitpid(child.child.pid, &status, 0) < 0 && errno == EINTR {}
        for watch in child.watches { watch.cancel() }
        child.poll?.cancel()
        for fd in [child.child.output, child.child.errors, child.child.exitDescriptor] where fd >= 0 { _ = Glibc.close(fd) }
        children[id] = nil
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was ended by signal \(signal)"
    }
}
