/// A client edit a rebase could not replay on a changed profile file
/// (PROFILE.md §5), as a `reload` event names it:
/// `{"button":"Persist","page":0,"index":8,"edit":"set 'Persist' at 0/8",
/// "reason":"the file changed slot 0/8","generation":41}`.
public struct DroppedEdit: Hashable, Sendable, CustomStringConvertible {
    /// The name of the button the edit set, cleared or moved (nil: none).
    public var button: String?
    /// The edit's first slot (a move's source).
    public var page: Int
    /// The edit's first slot (a move's source).
    public var index: Int
    /// The edit named in words: `move 'Files' 0/1 -> 1/0`.
    public var edit: String
    /// Why it was dropped: `the file changed slot 0/8`.
    public var reason: String
    /// The generation just before the reload, for `deckctl restore`.
    public var generation: Int

    /// Names a dropped edit.
    public init(button: String?, page: Int, index: Int, edit: String, reason: String, generation: Int) {
        self.button = button
        self.page = page
        self.index = index
        self.edit = edit
        self.reason = reason
        self.generation = generation
    }

    /// `dropped set 'Persist' at 0/8 (the file changed slot 0/8); deckctl restore 41 brings it back`.
    public var description: String {
        "dropped \(edit) (\(reason)); `deckctl restore \(generation)` brings back the layout from before the reload"
    }
}
