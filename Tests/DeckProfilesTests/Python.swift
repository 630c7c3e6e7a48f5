import DeckTestSupport
import Foundation

/// Runs python3 once over a whole batch (spawning it per case would make the
/// tests slow): the script reads JSON lines from the file named by argv[1]
/// and prints one JSON line per input line.
enum Python {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(script: String, lines: [String]) throws -> [String] {
        let folder = try TemporaryDirectory(prefix: "profiles-python")
        defer { folder.remove() }
        let scriptURL = folder.appending("check.py")
        let inputURL = folder.appending("input.jsonl")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        try (lines.joined(separator: "\n") + "\n").write(to: inputURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path, inputURL.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would block python forever.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.reap()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 failed (\(process.terminationStatus)): \(errorText) — is PyYAML installed? `make setup` installs it")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// Python helpers the profile checks share: `same(a, b)` compares JSON-like
    /// data strictly (a bool is not a number; 1 and 1.0 are equal numbers), and
    /// `as_layout(doc, stem)` turns a loaded profile into the PROTOCOL.md §3
    /// layout JSON (both slot forms, normal form) with its name.
    static let layoutHelpers = """
        import json, sys, yaml

        def same(a, b):
            if isinstance(a, bool) or isinstance(b, bool):
                return type(a) is type(b) and a == b
            if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                return a == b
            if type(a) is not type(b):
                return False
            if isinstance(a, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            if isinstance(a, list):
                return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            return a == b

        def as_layout(doc, stem):
            n = doc.get("slotsPerPage", 12)
            pages = []
            for page in doc["pages"]:
                slots = [None] * n
                buttons = page.get("buttons") or {}
                pairs = buttons.items() if isinstance(buttons, dict) else enumerate(buttons)
                for index, button in pairs:
                    slots[index] = button
                out = {"buttons": slots}
                if page.get("title") is not None:
                    out["title"] = page["title"]
                pages.append(out)
            while pages and all(b is None for b in pages[-1]["buttons"]):
                pages.pop()
            pages.append({"buttons": [None] * n})
            return {"name": doc.get("name") or stem, "layout": {"slotsPerPage": n, "pages": pages}}
        """

    /// A JSON string literal for `text`.
    static func json(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
