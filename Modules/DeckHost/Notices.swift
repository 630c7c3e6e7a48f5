/// The sentences `status` shows in `notices`: how this run started (a
/// damaged snapshot set aside and an older one resumed, the file winning
/// over edits), kept for the whole run so later notices never push them
/// out; then the newest of those noted since (corrupt snapshots found later,
/// retention failures).
struct Notices {
    /// How many notices of each kind (start, later) are kept.
    static let limit = 20
    /// From the start of the run: the first ones, and how many more the log holds.
    let start: [String]
    /// Noted since; the newest ``limit``.
    private(set) var later: [String] = []

    /// A state folder full of damaged files must not make `status` huge.
    init(start notices: [String]) {
        if notices.count > Self.limit {
            let more = notices.count - (Self.limit - 1)
            start = Array(notices.prefix(Self.limit - 1)) + ["\(more) more notices at start-up; see the log"]
        } else {
            start = notices
        }
    }

    /// What `status` shows: how this run started, then the newest later notices.
    var all: [String] { start + later }

    /// A notice noted now.
    mutating func note(_ notice: String) {
        later.append(notice)
        if later.count > Self.limit { later.removeFirst(later.count - Self.limit) }
    }
}
