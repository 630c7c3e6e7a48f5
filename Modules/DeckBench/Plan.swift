/// How many repetitions and how long each part runs. The full plan keeps the
/// whole run under three minutes on a 2-core machine; the quick plan only
/// proves that every part works.
package struct Plan: Sendable {
    package var echo: (count: Int, warmUp: Int)
    package var durableWrite: (count: Int, warmUp: Int)
    package var edits: (count: Int, warmUp: Int)
    package var fanOut: (count: Int, warmUp: Int)
    package var concurrentSeconds: Double
    package var concurrentDevices = 8
    package var profileLoad: (count: Int, warmUp: Int)
    package var pythonLoads: Int
    package var starts: Int
    package var statusCalls: Int
    package var idleSeconds: Double
    package var largeSnapshotWrites: (count: Int, warmUp: Int)
    package var fanOutSizes = [1, 64, 256]
    package var footprintDevices = 256
    /// TLS handshakes timed against deckd and against the in-process floor.
    package var handshakes = 200
    /// Pages of the large profile (12 buttons each).
    package var largePages = 1_000
    /// Records in the journal whose recovery is timed (issue 28: 100,000).
    package var journalRecords = 100_000

    package static let full = Plan(
        echo: (3_000, 300), durableWrite: (300, 20), edits: (400, 30), fanOut: (200, 20), concurrentSeconds: 5,
        profileLoad: (30, 3), pythonLoads: 5, starts: 20, statusCalls: 30, idleSeconds: 10, largeSnapshotWrites: (30, 3))

    package static let quick = Plan(
        echo: (100, 10), durableWrite: (10, 2), edits: (10, 2), fanOut: (5, 1), concurrentSeconds: 0.4,
        profileLoad: (1, 0), pythonLoads: 1, starts: 1, statusCalls: 2, idleSeconds: 0.5, largeSnapshotWrites: (3, 1),
        handshakes: 10, largePages: 100, journalRecords: 1_000)
}
