import DeckModel
import Foundation

/// A JSON value whose objects keep their key order, so output lines read
/// `{"t", "cb", …}` in the order the contract shows them.
public enum TraceValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TraceValue])
    case object([TraceField])

    /// Parses JSON text.
    public static func parse(_ data: Data) throws(TraceError) -> TraceValue {
        do {
            return TraceValue(try JSONDecoder().decode(DeckValue.self, from: data))
        } catch {
            throw TraceError("not valid JSON (\(syntaxProblem(in: data)))")
        }
    }

    /// Where the JSON text goes wrong, as `line L, column C: reason`.
    /// JSONDecoder only says that it is invalid; JSONSerialization says
    /// "… around character N", which is turned into a line and column here.
    private static func syntaxProblem(in data: Data) -> String {
        let reason: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not a JSON document"
        } catch {
            reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        }
        guard let range = reason.range(of: "around character "),
              let offset = Int(reason[range.upperBound...].prefix { $0.isNumber }) else { return reason }
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
        let text = reason[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        return "line \(line), column \(column): \(text.lowercased())"
    }

    init(_ value: DeckValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .number(Double(int))
        case .double(let double): self = .number(double)
        case .string(let string): self = .string(string)
        case .array(let array): self = .array(array.map(TraceValue.init))
        case .object(let object):
            self = .object(object.keys.sorted().map { TraceField($0, TraceValue(object[$0] ?? .null)) })
        }
    }

    /// The field `key` of an object (nil for a missing key or a non-object).
    public subscript(key: String) -> TraceValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }

    /// A point as the trace writes it: `[x, y]`.
    static func pair(_ x: CGFloat, _ y: CGFloat) -> TraceValue {
        .array([.number(Double(x)), .number(Double(y))])
    }

    /// Compact JSON text on one line.
    public var json: String {
        switch self {
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number): Self.format(number)
        case .string(let string): Self.quote(string)
        case .array(let items): "[" + items.map(\.json).joined(separator: ", ") + "]"
        case .object(let fields):
            "{" + fields.map { Self.quote($0.key) + ": " + $0.value.json }.joined(separator: ", ") + "}"
        }
    }

    /// Numbers rounded to nine decimals (so 0.6 + 0.5 prints as 1.1), whole
    /// ones without a decimal point.
    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        let rounded = (number * 1e9).rounded() / 1e9
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return "\(rounded)"
    }

    static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// One key and value of a ``TraceValue`` object.
public struct TraceField: Equatable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: TraceValue

    /// A field.
    public init(_ key: String, _ value: TraceValue) {
        self.key = key
        self.value = value
    }
}
