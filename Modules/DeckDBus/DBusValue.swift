/// A D-Bus value, in both directions: what a call sends (``DBusConnection/call(destination:path:interface:member:arguments:timeoutMicroseconds:)``)
/// and what a received message's body holds (``DBusMessage/body``).
///
/// Each basic type has its own case, so a value is written with exactly the
/// type the peer expects (`u` is not `i`). Reading is bounded
/// (``DBusLimits``): strings and arrays are cut as they are read, so a peer's
/// 1 MB string or million-entry array costs no more than the bound, and
/// anything the reader does not keep (a byte array, a file descriptor) is
/// ``other(signature:)``, so a peer sending something odd is reported, not
/// trusted. The accessors (``string``, ``integer``, ``dictionary``, …) see
/// through variants and widen integers, which is what most readers want.
public indirect enum DBusValue: Hashable, Sendable {
    /// `s`; `truncated` when the sender's string was longer than ``DBusLimits/stringBytes`` (ignored when written).
    case string(String, truncated: Bool = false)
    /// `o`.
    case objectPath(String)
    /// `g`.
    case signature(String)
    /// `b`.
    case bool(Bool)
    /// `y`.
    case byte(UInt8)
    /// `n`.
    case int16(Int16)
    /// `q`.
    case uint16(UInt16)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `x`.
    case int64(Int64)
    /// `t`.
    case uint64(UInt64)
    /// `d`.
    case double(Double)
    /// `v`: a value with its own type. Read only where it is not a dictionary's value (those are unwrapped).
    case variant(DBusValue)
    /// `a` + `of` (the element signature, `s` for `as`); every element has that signature.
    /// `truncated` when elements past ``DBusLimits/arrayElements`` were dropped as it was read.
    case array(of: String, [DBusValue], truncated: Bool = false)
    /// A string-keyed dictionary, the `a{sv}` "vardict" of most D-Bus APIs. Written as `a{sv}`, each
    /// value inside a variant of its own type; read from any `a{s…}` with variant values unwrapped and
    /// entries whose key is not a string dropped. `truncated` as for arrays.
    case dictionary([String: DBusValue], truncated: Bool = false)
    /// `(…)`.
    case structure([DBusValue])
    /// A value the reader does not keep (`h`, a byte array `ay`, a container past ``DBusLimits/depth``):
    /// its signature only. Cannot be written.
    case other(signature: String)

    /// The value's D-Bus type signature (`s`, `a{sv}`, `(ii)`).
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bool: "b"
        case .byte: "y"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .variant: "v"
        case .array(let element, _, _): "a" + element
        case .dictionary: "a{sv}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .other(let signature): signature
        }
    }

    /// The value inside any variants around it (itself when it is none).
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    /// The text of a string, object path or signature.
    public var string: String? {
        switch unwrapped {
        case .string(let text, _), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// Whether a string, array or dictionary was cut to its bound when it was read.
    public var isTruncated: Bool {
        switch unwrapped {
        case .string(_, let truncated), .array(_, _, let truncated), .dictionary(_, let truncated): truncated
        default: false
        }
    }

    /// Any integer type, widened (`t` past `Int64.max` is clamped to it).
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let number): Int64(number)
        case .int16(let number): Int64(number)
        case .uint16(let number): Int64(number)
        case .int32(let number): Int64(number)
        case .uint32(let number): Int64(number)
        case .int64(let number): number
        case .uint64(let number): Int64(clamping: number)
        default: nil
        }
    }

    /// The flag of a boolean.
    public var bool: Bool? {
        if case .bool(let flag) = unwrapped { return flag }
        return nil
    }

    /// The number of a double.
    public var double: Double? {
        if case .double(let number) = unwrapped { return number }
        return nil
    }

    /// The entries of a dictionary.
    public var dictionary: [String: DBusValue]? {
        if case .dictionary(let entries, _) = unwrapped { return entries }
        return nil
    }

    /// The elements of an array.
    public var elements: [DBusValue]? {
        if case .array(_, let elements, _) = unwrapped { return elements }
        return nil
    }

    /// The strings of an array of strings (`as`, `ao`); nil for anything else.
    public var strings: [String]? {
        guard let elements else { return nil }
        var result: [String] = []
        for element in elements {
            guard let string = element.string else { return nil }
            result.append(string)
        }
        return result
    }

    /// A short name of the value's type for a log line (`a string`, `an array`).
    public var kindName: String {
        switch self {
        case .string: "a string"
        case .objectPath: "an object path"
        case .signature: "a signature"
        case .bool: "a boolean"
        case .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64: "an integer"
        case .double: "a double"
        case .variant(let inner): inner.kindName
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .structure: "a structure"
        case .other(let signature): "type '\(signature)'"
        }
    }
}

/// How much of a received message is kept: each bound cuts what a peer can make the reader hold.
public struct DBusLimits: Hashable, Sendable {
    /// Bytes of one string kept; longer ones are cut (a character the cut splits becomes U+FFFD) and marked truncated.
    public var stringBytes: Int
    /// Elements of one array or dictionary kept (and values of one body); the rest are skipped unread.
    public var arrayElements: Int
    /// Containers inside containers read; deeper ones are skipped as ``DBusValue/other(signature:)``.
    public var depth: Int

    /// Limits of your own.
    public init(stringBytes: Int, arrayElements: Int, depth: Int) {
        self.stringBytes = stringBytes
        self.arrayElements = arrayElements
        self.depth = depth
    }

    /// 4 KiB strings, 256 elements, 16 levels (sd-bus allows 64): room for MPRIS's and the portals' messages.
    public static let standard = DBusLimits(stringBytes: 4096, arrayElements: 256, depth: 16)
}
