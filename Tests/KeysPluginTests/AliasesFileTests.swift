import KeysPlugin
import Testing

/// plugins/keys/aliases.txt is what deckd and `deckctl check` know of the
/// short names the chord parser accepts (the manifest names it as words of
/// press's `keys`): it must list exactly ``KeyNames/aliases``, each with the
/// keysym it stands for, or a profile check would flag a name a press
/// accepts, or pass one it refuses.
@Suite struct AliasesFileTests {
    @Test func theFileListsExactlyTheParsersAliases() {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let lines = KeyNames.words(inFile: "/" + root + "/plugins/keys/aliases.txt").filter { !$0.hasPrefix("#") }
        var listed: [String: String] = [:]
        for line in lines {
            let fields = line.split(separator: " ")
            #expect(fields.count == 2, "\(line)")
            if fields.count == 2 { listed[String(fields[0])] = String(fields[1]) }
        }
        #expect(lines.count == listed.count, "no alias listed twice")
        #expect(listed == KeyNames.aliases)
        for alias in listed.keys { #expect(names.keysym(alias) != nil, "\(alias)") }
    }
}
