import DeckProfiles

/// Properties: every problem of a refused profile names the file and a
/// position inside it; a profile that loads exports to YAML that loads to the
/// same profile, and exports to the same YAML again.
enum ProfileFuzz {
    static let file = "layouts/fuzzed.yaml"

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let profile: DeckProfile
        do throws(DeckProfilesError) {
            profile = try DeckProfile.parse(bytes, file: file)
        } catch {
            try FilePositions(bytes).requireInside(error.problems, file: file, reader: "the profile reader")
            return
        }
        let yaml = profile.yaml
        let again: DeckProfile
        do throws(DeckProfilesError) {
            again = try DeckProfile.parse(yaml, file: file)
        } catch {
            throw FuzzFinding("the export of a loaded profile does not load (\(error)):\n\(yaml)")
        }
        try require(again == profile, "a profile changed through export → load:\n\(yaml)")
        try require(again.yaml == yaml, "a profile's export is not stable:\n\(yaml)")
    }
}
