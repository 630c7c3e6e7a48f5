import DeckModel
/// One problem found in a file, at a 1-based line and column.
///
/// The host sends these in `status` as `{"file","line","column","message"}`
/// (PROTOCOL.md §7) and `deckctl check` prints them as `FILE:LINE:COLUMN: message`.
/// Columns count Unicode characters, as libyaml's marks do. A problem of the
/// file as a whole (empty, unreadable) points at 1:1.
public struct FileProblem: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The file as the caller named it (a path given on the command line, or
    /// the layouts folder joined with the file's name).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// What is wrong, as a sentence without the position.
    public var message: String

    /// Makes a problem; `line` and `column` are 1-based.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, the form editors and compilers use.
    public var description: String { "\(file):\(line):\(column): \(message)" }

    /// Orders by file, then position, so a report reads top to bottom.
    public static func < (lhs: FileProblem, rhs: FileProblem) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.message) < (rhs.file, rhs.line, rhs.column, rhs.message)
    }
}

extension FileProblem {
    /// A file that could not be read at all, at 1:1.
    static func unreadable(_ path: String, reason: String) -> FileProblem {
        FileProblem(file: path, line: 1, column: 1, message: "cannot read the file: \(reason)")
    }

    /// A problem at 1:1 when the profile's layout is larger than
    /// `maxLayoutBytes` as JSON (the host would refuse it at load): the one
    /// check deckd's load and `deckctl check` share.
    static func tooBigToSend(_ profile: DeckProfile, file: String, maxLayoutBytes: Int) -> FileProblem? {
        let size = EncodedLayout(profile.layout).json.count
        guard size > maxLayoutBytes else { return nil }
        return FileProblem(file: file, line: 1, column: 1, message: "the layout would be \(size) bytes of JSON, more than the "
            + "\(maxLayoutBytes >> 20) MiB the host sends to every device; shorten names, commands or settings, "
            + "or split it into several profiles")
    }

    /// A profile whose name an earlier file already has, at its `name:` (or 1:1).
    static func sharedName(_ name: String, in path: String, at mark: YAMLMark?, owner: String) -> FileProblem {
        let mark = mark ?? YAMLMark(line: 1, column: 1)
        return FileProblem(file: path, line: mark.line, column: mark.column,
                           message: "profile name '\(name)' is already used by \(owner); give one of them another name")
    }
}

extension FileProblem {
    /// How many problems of one file are listed; the rest are counted. A
    /// file with hundreds of thousands of problems otherwise made a `status`
    /// reply larger than a client's output queue and a 42 MB log.
    package static let listedPerFile = 100

    /// The first ``listedPerFile`` of one file's sorted problems, then one
    /// that counts the rest, at the first of them.
    package static func listed(_ problems: [FileProblem]) -> [FileProblem] {
        guard problems.count > listedPerFile else { return problems }
        let first = problems[listedPerFile]
        let rest = problems.count - listedPerFile
        return Array(problems.prefix(listedPerFile)) + [FileProblem(
            file: first.file, line: first.line, column: first.column,
            message: "\(rest) more problems from here on are not listed (a file lists its first \(listedPerFile))")]
    }
}
