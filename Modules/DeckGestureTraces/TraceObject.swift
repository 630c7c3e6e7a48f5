import Foundation

/// A JSON object being read from a trace, with the path to it for errors
/// (`gesture.sequenced[1].drag`).
struct TraceObject {
    let path: String
    private let fields: [String: TraceValue]

    init(_ value: TraceValue, at path: String) throws(TraceError) {
        guard case .object(let list) = value else {
            throw TraceError("\(path) must be an object, not \(value.json)")
        }
        self.path = path
        var fields: [String: TraceValue] = [:]
        for field in list { fields[field.key] = field.value }
        self.fields = fields
    }

    var keys: [String] { fields.keys.sorted() }

    subscript(key: String) -> TraceValue? { fields[key] }

    /// Refuses keys the contract does not define, so a typo is an error
    /// rather than a silently ignored setting.
    func allow(_ allowed: Set<String>) throws(TraceError) {
        if let unknown = keys.first(where: { !allowed.contains($0) }) {
            throw TraceError("\(path) has an unknown key '\(unknown)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func number(_ key: String, default fallback: Double? = nil) throws(TraceError) -> Double {
        try field(key, default: fallback, kind: "a number") { value in
            if case .number(let number) = value, number.isFinite { number } else { nil }
        }
    }

    func int(_ key: String, default fallback: Int? = nil, in range: ClosedRange<Int>) throws(TraceError) -> Int {
        let number = try self.number(key, default: fallback.map(Double.init))
        guard number == number.rounded(), let int = Int(exactly: number), range.contains(int) else {
            throw TraceError("\(path).\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(TraceValue.format(number))")
        }
        return int
    }

    func bool(_ key: String, default fallback: Bool? = nil) throws(TraceError) -> Bool {
        try field(key, default: fallback, kind: "true or false") { if case .bool(let bool) = $0 { bool } else { nil } }
    }

    func string(_ key: String, default fallback: String? = nil) throws(TraceError) -> String {
        try field(key, default: fallback, kind: "a string") { if case .string(let string) = $0 { string } else { nil } }
    }

    /// The field `key` read by `extract`, `fallback` when it is missing.
    private func field<T>(_ key: String, default fallback: T?, kind: String,
                          _ extract: (TraceValue) -> T?) throws(TraceError) -> T {
        guard let value = fields[key] else {
            guard let fallback else { throw TraceError("\(path) needs '\(key)'") }
            return fallback
        }
        guard let read = extract(value) else { throw TraceError("\(path).\(key) must be \(kind), not \(value.json)") }
        return read
    }

    /// `[x, y]` (or `[w, h]`).
    func pair(_ key: String) throws(TraceError) -> CGPoint {
        guard let value = fields[key] else { throw TraceError("\(path) needs '\(key)'") }
        let numbers = try Self.numbers(value, count: 2, at: "\(path).\(key)")
        return CGPoint(x: numbers[0], y: numbers[1])
    }

    static func numbers(_ value: TraceValue, count: Int, at path: String) throws(TraceError) -> [Double] {
        guard case .array(let items) = value, items.count == count else {
            throw TraceError("\(path) must be an array of \(count) numbers, not \(value.json)")
        }
        var numbers: [Double] = []
        for item in items {
            guard case .number(let number) = item, number.isFinite else {
                throw TraceError("\(path) must be an array of \(count) numbers, not \(value.json)")
            }
            numbers.append(number)
        }
        return numbers
    }
}
