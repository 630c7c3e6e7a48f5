#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The `time` field: ISO 8601 in UTC to the second, `2026-11-29T16:40:00Z`.
///
/// Formatted and parsed by hand with `gmtime_r`/`timegm`: exact, allocation-light,
/// and free of formatter objects that are not `Sendable`.
enum SnapshotTime {
    /// `date` rounded down to the second, as the file stores it.
    static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ`; a year below 1000 keeps four digits.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Written as bytes: built from small strings it was ~10 K instructions
        // on every commit (docs/performance.md, issue 28).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        let year = Int(parts.tm_year) + 1900
        if (0...9999).contains(year) {
            digits(year, count: 4, to: &bytes)
        } else {
            let text = String(year)
            bytes += Array(repeating: UInt8(ascii: "0"), count: max(0, 4 - text.utf8.count)) + Array(text.utf8)
        }
        for (separator, value) in [(UInt8(ascii: "-"), parts.tm_mon + 1), (UInt8(ascii: "-"), parts.tm_mday),
                                   (UInt8(ascii: "T"), parts.tm_hour), (UInt8(ascii: ":"), parts.tm_min),
                                   (UInt8(ascii: ":"), parts.tm_sec)] {
            bytes.append(separator)
            digits(Int(value), count: 2, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` (0 ≤ value < 10^count) in exactly `count` decimal digits.
    private static func digits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Accepts `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds and a `Z`.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, let digits = number(20..<(bytes.count - 1)),
                  bytes.count - 21 <= 9 else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        } else if bytes[19] != UInt8(ascii: "Z") {
            return nil
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: Double(timegm(&parts)) + fraction)
    }
}
