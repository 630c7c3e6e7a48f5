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
