import DeckPlugins
import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

/// `plugin.yaml`: what a good one gives, and the exact problem for each mistake.
@Suite struct ManifestTests {
    /// A plugin folder holding an executable `run`, a plain file `notes.txt` and a folder `lib`.
    final class Folder: Sendable {
        let directory: TemporaryDirectory
        var path: String { directory.path }

        init() throws {
            directory = try TemporaryDirectory(prefix: "manifest")
            try Data("#!/bin/sh\n".utf8).write(to: directory.appending("run"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.appending("run").path)
            try Data("x".utf8).write(to: directory.appending("notes.txt"))
            try FileManager.default.createDirectory(at: directory.appending("lib"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: directory.appending("loop").path, withDestinationPath: "loop")
            try FileManager.default.createSymbolicLink(atPath: directory.appending("dangling").path, withDestinationPath: "gone")
        }

        func parse(_ yaml: String) throws(DeckPluginsError) -> PluginManifest {
            try PluginManifest.parse(Array(yaml.utf8), folder: path, searchPath: "/usr/bin:/bin")
        }

        /// The problems of `yaml` as `LINE:COLUMN: message` (the file part removed).
        func problems(_ yaml: String) -> [String] {
            do {
                _ = try parse(yaml)
                return []
            } catch {
                guard case .invalidManifest(let problems) = error else { return ["\(error)"] }
                return problems.map { problem in
                    #expect(problem.file == path + "/plugin.yaml")
                    return "\(problem.line):\(problem.column): \(problem.message)"
                }
            }
        }
    }

    @Test func theContractsExample() throws {
        let folder = try Folder()
        let manifest = try folder.parse("""
            id: counter                 # what profiles name in {plugin: counter, command: …}
            name: Counter
            version: 1.0.0
            protocol: 1
            exec: [./run, --verbose]
            commands:
              - {name: increment, title: "Count presses"}
              - {name: reset}
            """)
        #expect(manifest.id == "counter")
        #expect(manifest.name == "Counter")
        #expect(manifest.version == "1.0.0")
        #expect(manifest.protocolLevel == 1)
        #expect(manifest.exec == ["./run", "--verbose"])
        #expect(manifest.executable == folder.path + "/run")
        #expect(manifest.arguments == [folder.path + "/run", "--verbose"])
        #expect(manifest.commands == [PluginCommand(name: "increment", title: "Count presses"), PluginCommand(name: "reset")])
        #expect(manifest.folder == folder.path)
    }

    @Test func theLeastThereIs() throws {
        let folder = try Folder()
        let manifest = try folder.parse("id: tiny\nexec: [run]\n")
        #expect(manifest.name == "tiny" && manifest.version == nil && manifest.commands.isEmpty)
        #expect(manifest.executable == folder.path + "/run", "a bare name is looked for in the folder first")
        let onPath = try folder.parse("id: py\nexec: [sh, hold.sh]\nversion: 2.0\nx-notes: {anything: [goes]}\ncommands: [hold, {name: stop}]\n")
        #expect(onPath.executable == "/usr/bin/sh" || onPath.executable == "/bin/sh", "then on PATH")
        #expect(onPath.arguments.dropFirst() == ["hold.sh"])
        #expect(onPath.version == "2.0", "text as written, not the float 2.0")
        #expect(onPath.commands.map(\.name) == ["hold", "stop"], "a name alone is a command too")
        let absolute = try folder.parse("id: abs\nexec: [/bin/sh, -c, 'echo hi']\n")
        #expect(absolute.executable == "/bin/sh")
    }

    @Test(arguments: [
        // Shape of the file
        ("", ["1:1: the file is empty; a plugin manifest needs at least id: and exec:"]),
        ("# only a comment\n", ["1:1: the file is empty; a plugin manifest needs at least id: and exec:"]),
        // A document marker alone: the problem of the whole file was placed at 2:1, past the end (a fuzz finding).
        ("---", ["1:1: the file is empty; a plugin manifest needs at least id: and exec:"]),
        ("---\n", ["1:1: the file is empty; a plugin manifest needs at least id: and exec:"]),
        ("--- ~\n", ["1:1: the file is empty; a plugin manifest needs at least id: and exec:"]),
        ("- id: x\n", ["1:1: a plugin manifest must be a mapping with id, name, version, protocol, exec and commands, not a list"]),
        ("id: x\nexec: [run\n", ["2:11: unclosed bracket: a ']' is missing here to close the '[' at column 7 (YAML syntax)",
                                 "3:1: note: the YAML parser stopped here: did not find expected ',' or ']', while parsing a flow sequence that starts at line 2, column 7"]),
        // Keys
        ("id: x\nexce: [run]\n", ["2:1: unknown key 'exce' in plugin manifest (expected id, name, version, protocol, exec, commands)"]),
        ("id: x\nexec: [run]\nauthor: me\n", ["3:1: unknown key 'author' in plugin manifest (expected id, name, version, protocol, exec, commands)"]),
        ("id: x\nexec: [run]\nid: y\n", ["3:1: key 'id' is given twice (first at line 1)"]),
        ("id: x\nexec: [run]\n[a]: 1\n", ["3:1: keys in a plugin manifest must be plain names, not a list"]),
        // id
        ("exec: [run]\n", ["1:1: a plugin manifest needs id: (the name profiles use in {plugin: ID, command: …})"]),
        ("id:\nexec: [run]\n", ["1:1: a plugin manifest needs id: (the name profiles use in {plugin: ID, command: …})"]),
        ("id: my plugin\nexec: [run]\n", ["1:5: plugin id 'my plugin' may only hold letters, digits, '.', '_' and '-', and must start with a letter or digit"]),
        ("id: [a]\nexec: [run]\n", ["1:5: id must be a string, not a list"]),
        ("id: \"  \"\nexec: [run]\n", ["1:5: id must not be empty"]),
        // protocol
        ("id: x\nexec: [run]\nprotocol: 2\n", ["3:11: this plugin speaks plugin protocol 2, but this host speaks protocol 1; update deckd"]),
        ("id: x\nexec: [run]\nprotocol: one\n", ["3:11: protocol must be a whole number such as 1, not 'one'"]),
        // exec
        ("id: x\n", ["1:1: a plugin manifest needs exec: (the program to start, as a list such as [./plugin])"]),
        ("id: x\nexec:\n", ["2:1: a plugin manifest needs exec: (the program to start, as a list such as [./plugin])"]),
        ("id: x\nexec: ./run\n", ["2:7: exec must be a list of the program and its arguments (argv form, no shell), not a string; write exec: [./run]"]),
        ("id: x\nexec: python3 hold.py\n", ["2:7: exec must be a list of the program and its arguments (argv form, no shell), not a string; one item per argument"]),
        ("id: x\nexec: {run: 1}\n", ["2:7: exec must be a list of the program and its arguments, not a mapping"]),
        ("id: x\nexec: []\n", ["2:7: exec needs at least the program to start, such as [./plugin]"]),
        ("id: x\nexec: [run, [a]]\n", ["2:13: exec items must be strings, not a list"]),
        ("id: x\nexec: [\"\"]\n", ["2:8: the program in exec must not be empty"]),
        ("id: x\nexec: [./missing]\n", ["2:8: exec: FOLDER/missing does not exist"]),
        ("id: x\nexec: [./loop]\n", ["2:8: exec: FOLDER/loop is a loop of symbolic links"]),
        ("id: x\nexec: [./dangling]\n", ["2:8: exec: FOLDER/dangling is a symbolic link to something that does not exist"]),
        ("id: x\nexec: [./notes.txt/run]\n", ["2:8: exec: FOLDER/notes.txt/run does not exist: a part of its path is a file, not a folder"]),
        ("id: x\nexec: [./notes.txt]\n", ["2:8: exec: FOLDER/notes.txt is not executable; make it so with chmod +x"]),
        ("id: x\nexec: [lib]\n", ["2:8: exec: FOLDER/lib is a folder, not a program"]),
        ("id: x\nexec: [no-such-program-anywhere]\n", ["2:8: exec: 'no-such-program-anywhere' is neither in the plugin's folder (FOLDER) nor on PATH"]),
        // commands
        ("id: x\nexec: [run]\ncommands: {increment: {}}\n", ["3:11: commands must be a list such as [{name: increment}], not a mapping"]),
        ("id: x\nexec: [run]\ncommands:\n  - {nmae: a}\n", ["4:6: unknown key 'nmae' in command (expected name, title, hold, settings)"]),
        ("id: x\nexec: [run]\ncommands:\n  - {title: T}\n", ["4:5: command needs a name"]),
        ("id: x\nexec: [run]\ncommands:\n  - {name: a}\n  - a\n", ["5:5: command 'a' is listed twice (first at line 4)"]),
        ("id: x\nexec: [run]\ncommands: [~]\n", ["3:12: a command must be a mapping such as {name: increment}, not nothing"]),
        // All at once, in order
        ("id: bad id\nexec: run\nnmae: X\n", [
            "1:5: plugin id 'bad id' may only hold letters, digits, '.', '_' and '-', and must start with a letter or digit",
            "2:7: exec must be a list of the program and its arguments (argv form, no shell), not a string; write exec: [run]",
            "3:1: unknown key 'nmae' in plugin manifest (expected id, name, version, protocol, exec, commands)",
        ]),
    ])
    func problems(_ yaml: String, _ expected: [String]) throws {
        let folder = try Folder()
        #expect(folder.problems(yaml) == expected.map { $0.replacingOccurrences(of: "FOLDER", with: folder.path) })
    }

    /// A typo of a required key is one problem, not also "needs exec".
    @Test func aTypoIsNotAlsoMissing() throws {
        let folder = try Folder()
        #expect(folder.problems("id: x\nexe: [run]\n")
            == ["2:1: unknown key 'exe' in plugin manifest (expected id, name, version, protocol, exec, commands)"])
        #expect(folder.problems("ID: x\nexec: [run]\n")
            == ["1:1: unknown key 'ID' in plugin manifest (expected id, name, version, protocol, exec, commands)"])
    }

    @Test func loadReadsTheFile() throws {
        let folder = try Folder()
        #expect(throws: DeckPluginsError.self) { try PluginManifest.load(folder: folder.path, searchPath: nil) }
        do {
            _ = try PluginManifest.load(folder: folder.path, searchPath: nil)
        } catch {
            #expect(error.description == folder.path + "/plugin.yaml:1:1: cannot read the file: No such file or directory")
        }
        try Data("id: ok\nexec: [./run]\n".utf8).write(to: folder.directory.appending("plugin.yaml"))
        #expect(try PluginManifest.load(folder: folder.path, searchPath: nil).id == "ok")
    }
}
