import DeckProfiles
import Foundation
import Testing

/// The broken fixtures next to this file: `NAME.yaml` holds one kind of
/// problem, `NAME.expected` the exact lines `deckctl check NAME.yaml` prints.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }()

    static func bytes(_ name: String, _ ext: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent("\(name).\(ext)")))
    }

    static func expectedLines(_ name: String) throws -> [String] {
        String(decoding: try bytes(name, "expected"), as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

@Suite("Broken fixtures give exactly the expected problems")
struct FixtureTests {
    @Test func thereAreFixtures() {
        #expect(Fixtures.names.count >= 15)
    }

    @Test(arguments: Fixtures.names)
    func problemsMatchExactly(_ name: String) throws {
        let expected = try Fixtures.expectedLines(name)
        #expect(!expected.isEmpty, "a fixture must have at least one problem")
        let bytes = try Fixtures.bytes(name, "yaml")
        do throws(DeckProfilesError) {
            let profile = try DeckProfile.parse(bytes, file: "\(name).yaml")
            Issue.record("\(name).yaml loaded as \(profile.name) although it is broken")
        } catch {
            #expect(error.problems.map(\.description) == expected)
            #expect(error.problems.allSatisfy { $0.file == "\(name).yaml" && $0.line >= 1 && $0.column >= 1 })
        }
    }
}
