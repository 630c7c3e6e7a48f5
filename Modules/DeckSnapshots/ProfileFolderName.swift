#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Profile names as folder names under `STATE/snapshots/`, reversibly.
///
/// A profile name is any string (a file stem, or whatever `name:` says), so it
/// may hold `/`, `..`, NUL, newlines or bidi controls. The folder name keeps
/// letters, marks and digits of any script, `-`, `_` and `.` as they are, so
/// `default` and `스트리밍` stay readable in `ls`; every other Unicode scalar is
/// written as `%XX` per UTF-8 byte, and so is a leading `.` (no `.`, `..` or
/// hidden folders). `%` itself is always encoded, so decoding is exact.
/// Names are NFC-normalized first: Swift's `==` treats canonically equivalent
/// names as equal, so they must share one folder.
public enum ProfileFolderName {
    /// The longest folder name Linux accepts (NAME_MAX).
    static let maximumLength = 255

    /// The folder name for `profile`. Throws for an empty name or one whose
    /// encoded form is longer than a file name may be.
    public static func encode(_ profile: String) throws(SnapshotError) -> String {
        guard !profile.isEmpty else {
            throw .invalidProfileName(name: profile, reason: "the name is empty")
        }
        // Most names (`default`, `streaming-2`) are kept byte for byte, and
        // ASCII is its own NFC: no normalizing or rebuilding on every commit.
        if profile.utf8.count <= maximumLength, keepsWhole(profile.utf8) { return profile }
        var encoded = ""
        // NFC through the standard library (`_nfcCodeUnits`, which String's own
        // comparison uses): Foundation's precomposedStringWithCanonicalMapping
        // would link all of Foundation, with ICU, into deckd (~MBs resident).
        let normalized = String(decoding: profile._nfcCodeUnits, as: UTF8.self)
        for scalar in normalized.unicodeScalars {
            if keeps(scalar, first: encoded.isEmpty) {
                encoded.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0xF)]
                }
            }
        }
        guard encoded.utf8.count <= maximumLength else {
            throw .invalidProfileName(
                name: profile,
                reason: "as a folder name it takes \(encoded.utf8.count) bytes, more than the \(maximumLength) a file name may have; use a shorter name")
        }
        return encoded
    }

    /// The profile name a folder stands for, or nil for a folder this encoding
    /// never produces (a stray folder someone made by hand).
    public static func decode(_ folder: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(folder.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let high = hexValue(input.removeFirst()), let low = hexValue(input.removeFirst()) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        guard let name = String(validating: bytes, as: UTF8.self), (try? encode(name)) == folder else { return nil }
        return name
    }

    private static let hexDigits = Array("0123456789ABCDEF").map(String.init)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether every byte is an ASCII scalar that ``keeps(_:first:)`` keeps.
    private static func keepsWhole(_ bytes: String.UTF8View) -> Bool {
        var first = true
        for byte in bytes {
            guard byte < 0x80, keeps(Unicode.Scalar(byte), first: first) else { return false }
            first = false
        }
        return true
    }

    private static func keeps(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        if scalar.isASCII {
            let byte = UInt8(scalar.value)
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            case UInt8(ascii: "."):
                return !first
            default:
                return false
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            // A leading combining mark would attach to whatever a terminal printed before it.
            return !(first && scalar.properties.generalCategory.isMark)
        default:
            return false
        }
    }
}

private extension Unicode.GeneralCategory {
    var isMark: Bool { self == .nonspacingMark || self == .spacingMark || self == .enclosingMark }
}
