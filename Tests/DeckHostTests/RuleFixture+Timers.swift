@testable import DeckHost

/// The timers the rules ask the shell for, in one place: the face table's
/// frame and the stop's deadline. The tests of faces and of the stop say
/// "a frame was asked for", "the frame passed", "the deadline passed"
/// through these, so a change of how timers are asked for and fired back
/// (one timer action and one fired input for all of them) is made here.
extension Rules {
    /// The face table asks for the end of its 16 ms frame.
    static let frameAsked: HostAction = .armTimer(.faceFrame, after: .milliseconds(16))

    /// The frame the face table asked for passed.
    static let frameEnded: HostInput = .timerFired(.faceFrame)

    /// The stop's deadline passes while plugins are still stopping (the
    /// shell said so last, with `stopProgress`).
    static func deadlinePassedWithPluginsRunning(_ host: inout HostState) -> [HostAction] {
        _ = host.handle(.stopProgress(pluginsStopped: false))
        return host.handle(.timerFired(.stopDeadline))
    }
}

extension Rules {
    /// The face table asks for the end of the turn a change came in.
    static let turnEndAsked: HostAction = .armTimer(.faceFrame, after: .zero)
}

extension HostState {
    /// `input`, then the end of its turn when the face table asked for one
    /// (the loop fires a zero-delay timer once the wake-up's events are
    /// handled): what goes out in the turn the input came in.
    mutating func handleTurn(_ input: HostInput) -> [HostAction] {
        var actions = handle(input)
        guard let asked = actions.firstIndex(of: Rules.turnEndAsked) else { return actions }
        actions.remove(at: asked)
        return actions + handle(Rules.frameEnded)
    }
}
