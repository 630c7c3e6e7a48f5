import DeckCommandLine
import DeckProfiles
import Foundation

/// The commands that need no host: check and completion.
extension Deckctl {
    /// `check FILE…`: every problem of every file, exit 65 if any. Standard
    /// output holds only problems (`FILE:LINE:COLUMN: message`) unless a person
    /// is reading it at a terminal, who also sees `FILE: ok` for a good file.
    @Sendable static func check(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failed = false
        for result in ProfileCheck.check(paths: run.parsed.all(C.files)) {
            if result.problems.isEmpty {
                if !run.json && run.console.interactive { run.console.out("\(result.path): ok") }
                continue
            }
            failed = true
            for problem in result.problems {
                if run.json, let data = try? encoder.encode(problem) {
                    run.console.out(String(decoding: data, as: UTF8.self))
                } else {
                    run.console.out(problem.description)
                }
            }
        }
        return failed ? .problems : .ok
    }

    /// `completion bash`: the completion script made from the declarations.
    @Sendable static func completion(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        run.console.out(BashCompletion.script(for: DeckctlCommands.root))
        return .ok
    }
}
