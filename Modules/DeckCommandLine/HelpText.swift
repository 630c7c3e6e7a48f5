/// The help a tool prints for `--help`, made from the declaration: usage,
/// description, commands or arguments, options, global options, examples,
/// and the declared notes, wrapped to fit `width` columns.
public enum HelpText {
    /// Help for the last command of `path` (root first).
    public static func render(_ path: [CommandSpec], width: Int = 80) -> String {
        guard let command = path.last else { return "" }
        var sections: [String] = [usage(path, width: width)]
        let text = command.discussion.isEmpty ? sentence(command.summary) : command.discussion
        sections.append(TextWrap.paragraphs(text, width: width))
        if !command.subcommands.isEmpty {
            let rows = command.subcommands.filter { !$0.isHidden }.map { ($0.name, $0.summary) }
            sections.append("commands:\n" + table(rows, width: width))
        }
        if !command.arguments.isEmpty {
            sections.append("arguments:\n" + table(command.arguments.map { ($0.name, $0.help) }, width: width))
        }
        let help = OptionSpec(name: "help", short: "h", help: path.count == 1 && !command.subcommands.isEmpty
                                  ? "show this help; '\(command.name) COMMAND --help' (or '\(command.name) help COMMAND') for one command"
                                  : "show this help")
        sections.append("options:\n" + optionTable(command.options.filter { !$0.isHidden } + [help], width: width))
        let inherited = path.dropLast().flatMap(\.options).filter { !$0.isHidden }
        if !inherited.isEmpty {
            sections.append("global options:\n" + optionTable(inherited, width: width))
        }
        if !command.examples.isEmpty {
            let lines = command.examples.map { example in
                "  " + example.command + "\n" + TextWrap.wrap(example.explanation, width: width, indent: 6)
            }
            sections.append("examples:\n" + lines.joined(separator: "\n"))
        }
        for note in command.notes {
            sections.append("\(note.title):\n" + TextWrap.wrap(note.text, width: width, indent: 2))
        }
        return sections.joined(separator: "\n\n")
    }

    /// `usage: deckctl set PAGE INDEX …`, broken between pieces to fit,
    /// continuation lines indented under the first argument.
    public static func usage(_ path: [CommandSpec], width: Int = 80) -> String {
        let pieces = Synopsis.pieces(of: path)
        let head = "usage: " + (pieces.first ?? "")
        let indent = min(head.count + 1, width / 2)
        var lines = [head]
        for piece in pieces.dropFirst() {
            let current = lines[lines.count - 1]
            if current.count + 1 + piece.count > width && current.count > indent {
                lines.append(String(repeating: " ", count: indent) + piece)
            } else {
                lines[lines.count - 1] = current + " " + piece
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Options as `-o, --output FILE  text`, long-only ones aligned under the long names.
    static func optionTable(_ options: [OptionSpec], width: Int) -> String {
        let anyShort = options.contains { $0.short != nil }
        let rows = options.map { option -> (String, String) in
            let short = option.short.map { "-\($0), " } ?? (anyShort ? "    " : "")
            let value = option.valueName.map { " " + $0 } ?? ""
            let repeats = option.isRepeatable ? " (may be given more than once)" : ""
            return (short + option.longForm + value, option.help + repeats)
        }
        return table(rows, width: width)
    }

    /// Two columns: terms, and wrapped descriptions aligned after the widest
    /// term (a term too wide for that gets its description on the next line).
    static func table(_ rows: [(term: String, text: String)], width: Int) -> String {
        let column = min((rows.map(\.term.count).max() ?? 0) + 4, 28)
        return rows.map { row in
            let text = TextWrap.wrap(row.text, width: width, indent: column)
            let term = "  " + row.term
            if term.count + 2 > column { return term + "\n" + text }
            return term + String(text.dropFirst(term.count))
        }.joined(separator: "\n")
    }

    /// A summary as a sentence: capitalized, with a full stop.
    static func sentence(_ summary: String) -> String {
        guard let first = summary.first else { return "" }
        let text = first.uppercased() + summary.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}

/// Word wrapping for help text (counted in characters: help is ASCII).
package enum TextWrap {
    /// `text` wrapped to `width`, every line indented by `indent` spaces. A
    /// word longer than a line stays whole. Line breaks in `text` are kept,
    /// and so is the spacing of a line that fits as it is.
    package static func wrap(_ text: String, width: Int, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraphLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A line that fits keeps its own spacing (aligned columns in notes).
            if indent + paragraphLine.count <= width {
                lines.append(paragraphLine.isEmpty ? "" : pad + paragraphLine)
                continue
            }
            var current = pad
            for word in paragraphLine.split(separator: " ") {
                if current.count > indent && current.count + 1 + word.count > width {
                    lines.append(current)
                    current = pad
                }
                current += (current.count > indent ? " " : "") + word
            }
            lines.append(current)
        }
        return lines.joined(separator: "\n")
    }

    /// Paragraphs separated by blank lines, each wrapped without indent.
    package static func paragraphs(_ text: String, width: Int) -> String {
        text.blankLineParagraphs().map { wrap($0, width: width, indent: 0) }.joined(separator: "\n\n")
    }
}

extension String {
    /// Splits at blank lines (Foundation-free).
    fileprivate func blankLineParagraphs() -> [String] {
        var paragraphs: [String] = []
        var current: [Substring] = []
        for line in split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        return paragraphs
    }
}
