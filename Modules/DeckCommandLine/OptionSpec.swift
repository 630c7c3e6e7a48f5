/// How a shell completes a value or an argument.
// One case carries a payload, on purpose: with two (`words([String])` and
// `tool([String])`) the compiler keeps the case in spare high bits of the
// array pointer, LeakSanitizer then cannot see the pointer in a global such as
// `static let profileNames`, and every deckctl run under `make sanitize`
// reported its array as leaked.
public enum CompletionKind: Hashable, Sendable {
    /// Nothing to offer (free text, numbers).
    case none
    /// File names.
    case file
    /// Folder names.
    case directory
    /// Words from `source`: the list itself, or the tool's arguments.
    case list(CompletionSource, [String])

    /// A fixed list of words.
    public static func words(_ words: [String]) -> CompletionKind { .list(.words, words) }

    /// The output lines of the tool itself run with these arguments (after
    /// the global options already on the command line), e.g.
    /// `["profiles", "--names"]` to complete profile names from the host.
    public static func tool(_ arguments: [String]) -> CompletionKind { .list(.tool, arguments) }
}

/// Where the words of ``CompletionKind/list(_:_:)`` come from.
public enum CompletionSource: Hashable, Sendable {
    /// The list holds the words.
    case words
    /// The list holds the arguments to run the tool itself with; its output lines are the words.
    case tool
}

/// One option of a command, as the parser, the help text and the shell
/// completion see it. Usually made through ``Flag`` or ``Option``.
public struct OptionSpec: Sendable {
    /// The long name without dashes: `control` for `--control`.
    public let name: String
    /// The one-letter form, if any: `o` for `-o`.
    public let short: Character?
    /// The value's placeholder in help (`PATH`); nil for a flag, which takes no value.
    public let valueName: String?
    /// One sentence (or fragment) for the help text.
    public let help: String
    /// May be given more than once (`--setting K=V …`); otherwise a second one is a usage error.
    public let isRepeatable: Bool
    /// Must be given.
    public let isRequired: Bool
    /// Accepted but left out of help and completion (test and debugging knobs).
    public let isHidden: Bool
    /// How a shell completes the value.
    public let completion: CompletionKind
    /// The option this one belongs to (`cwd` goes only with `run`).
    public let onlyWith: String?
    /// Options that must come with this one (`plugin` needs `command`).
    public let needs: [String]
    /// Reads and checks a value: nil when it is good, else the rest of a
    /// sentence that starts with the option's name (`must be a whole number`).
    let check: @Sendable (String) -> String?

    /// Makes an option directly; ``Flag`` and ``Option`` are the typed way.
    public init(name: String, short: Character? = nil, valueName: String? = nil, help: String,
                repeatable: Bool = false, required: Bool = false, hidden: Bool = false,
                completion: CompletionKind = .none, onlyWith: String? = nil, needs: [String] = [],
                check: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.isRepeatable = repeatable
        self.isRequired = required
        self.isHidden = hidden
        self.completion = completion
        self.onlyWith = onlyWith
        self.needs = needs
        self.check = check
    }

    /// True when the option takes no value.
    public var isFlag: Bool { valueName == nil }
    /// `--control`.
    public var longForm: String { "--" + name }
    /// How the option is written in a synopsis: `-o FILE`, `--control PATH`, `--json`.
    public var synopsis: String {
        let form = short.map { "-\($0)" } ?? longForm
        return valueName.map { "\(form) \($0)" } ?? form
    }
}

/// One positional argument of a command.
public struct ArgumentSpec: Sendable {
    /// How many values the argument takes.
    public enum Arity: Hashable, Sendable {
        /// Exactly one (`PAGE`).
        case one
        /// Zero or one (`[PAGE]`).
        case optional
        /// At least one (`FILE…`); only the last argument.
        case oneOrMore
        /// Any number (`[FILE…]`); only the last argument.
        case zeroOrMore

        /// True when the argument may be left out.
        public var isOptional: Bool { self == .optional || self == .zeroOrMore }
        /// True when the argument takes every remaining value.
        public var isVariadic: Bool { self == .oneOrMore || self == .zeroOrMore }
    }

    /// The placeholder, in capitals: `PAGE`.
    public let name: String
    /// One sentence (or fragment) for the help text.
    public let help: String
    /// How many values it takes.
    public let arity: Arity
    /// How a shell completes it.
    public let completion: CompletionKind
    /// Reads and checks a value, as ``OptionSpec`` does.
    let check: @Sendable (String) -> String?

    /// Makes an argument directly; ``Argument`` is the typed way.
    public init(name: String, help: String, arity: Arity = .one, completion: CompletionKind = .none,
                check: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.help = help
        self.arity = arity
        self.completion = completion
        self.check = check
    }

    /// How the argument is written in a synopsis: `PAGE`, `[PAGE]`, `FILE…`, `[FILE…]`.
    public var synopsis: String {
        switch arity {
        case .one: name
        case .optional: "[\(name)]"
        case .oneOrMore: "\(name)…"
        case .zeroOrMore: "[\(name)…]"
        }
    }
}

/// Options of which at most one may be given (`--down | --up`), or exactly
/// one when the group is required (the action kind of `set`).
public struct OptionGroup: Sendable {
    /// The options' long names, in the order help lists them.
    public let names: [String]
    /// Exactly one must be given.
    public let isRequired: Bool
    /// What the options choose between, for messages: `what the button does`.
    public let meaning: String

    /// Makes a group.
    public init(_ names: [String], required: Bool = false, meaning: String) {
        self.names = names
        self.isRequired = required
        self.meaning = meaning
    }
}

/// One example in a command's help: a command line and what it does.
public struct Example: Sendable {
    /// The whole command line, starting with the tool's name.
    public let command: String
    /// What it does.
    public let explanation: String

    /// Makes an example.
    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}
