import DeckCommandLine
import DeckPlugins
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
        let results = ProfileCheck.check(paths: run.parsed.all(C.files))
        let settings = settingsProblems(of: results, folders: run.parsed.all(C.pluginFolders))
        for result in results {
            let problems = (result.problems + (settings[result.path] ?? [])).sorted()
            if problems.isEmpty {
                if !run.json && run.console.interactive { run.console.out("\(result.path): ok") }
                continue
            }
            failed = true
            for problem in problems {
                if run.json, let data = try? encoder.encode(problem) {
                    run.console.out(String(decoding: data, as: UTF8.self))
                } else {
                    run.console.out(problem.description)
                }
            }
        }
        return failed ? .problems : .ok
    }

    /// The problems of plugin buttons' settings, by the checked path they
    /// belong to (a broken manifest of a plugin a file uses counts for that
    /// file), from the manifests of `folders` (none given: deckd's defaults).
    static func settingsProblems(of results: [ProfileCheck.Result], folders: [String]) -> [String: [FileProblem]] {
        let environment = ProcessEnvironment.variables
        let catalog = PluginCatalog.scan(folders: folders.isEmpty ? PluginFolders.defaults(environment: environment) : folders,
                                         searchPath: environment["PATH"])
        var found: [String: [FileProblem]] = [:]
        for result in results { found[result.path] = catalog.settingsProblems(of: result) }
        return found
    }

    /// `completion bash`: the completion script made from the declarations.
    @Sendable static func completion(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        run.console.out(BashCompletion.script(for: DeckctlCommands.root))
        return .ok
    }
}
