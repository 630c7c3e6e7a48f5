internal import CYAML

/// Builds a ``YAMLDocument`` from libyaml's event stream in one pass.
///
/// Children of an open collection collect on a shared scratch stack and are
/// copied into the document's `children` array as one contiguous range when
/// the collection ends, so no collection ever allocates an array of its own.
struct YAMLBuilder {
    var document: YAMLDocument
    let limits: YAMLLimits

    struct Frame {
        var node: Int32
        var scratchStart: Int
        var isMapping: Bool
        var size: UInt64 = 1
        var height = 0
        /// True when the collection has an anchor (its name is on `openAnchors`).
        var anchored = false
        var hasMergeKey = false
    }

    /// Size and height of a finished anchored node, which aliases copy.
    struct Extent {
        var size: UInt64
        var height: Int
    }

    var frames: [Frame] = []
    /// Names of the anchored collections still open, innermost last.
    var openAnchors: [String] = []
    var scratch: [Int32] = []
    var anchors: [String: Int32] = [:]
    var extents: [Int32: Extent] = [:]
    var tagIndex: [String: UInt16] = [:]
    var realNodes: UInt64 = 0
    var expandedNodes: UInt64 = 0
    var rootNode: Int32?
    /// Bytes of `document.text` in use.
    var textCount = 0
    /// Set by ``fail(_:at:)``: parsing stops and the document gets no root.
    var failed = false
    var documents = 0

    init(file: String, limits: YAMLLimits) {
        document = YAMLDocument(file: file)
        self.limits = limits
    }

    /// Runs libyaml over `input` and fills the document. Stops at the first
    /// syntax error, since libyaml cannot resynchronise after one.
    mutating func run(_ input: [UInt8]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            fail("out of memory while starting the YAML parser", at: YAMLMark(line: 1, column: 1))
            return
        }
        defer { yaml_parser_delete(&parser) }
        // Scalar text never outgrows its source by more than half (`\L`, two
        // characters, is three bytes), so one zeroed buffer holds it all and
        // each scalar is one memcpy; the unused tail is cut off at the end.
        document.text = [UInt8](repeating: 0, count: input.count + input.count / 2 + 16)
        document.nodes.reserveCapacity(input.count / 6)
        document.children.reserveCapacity(input.count / 6)
        defer { document.text.removeSubrange(textCount...) }
        input.withUnsafeBufferPointer { buffer in
            // libyaml asserts on a null input; an empty stream has no document anyway.
            guard let base = buffer.baseAddress else { return }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            // Forced, so a UTF-16 byte-order mark is an encoding error rather than
            // a silent switch of encoding (profiles are UTF-8, PROFILE.md §4).
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var event = yaml_event_t()
            var running = true
            var untilAsked = max(1, limits.giveUpInterval)
            while running {
                untilAsked -= 1
                if untilAsked == 0 {
                    untilAsked = max(1, limits.giveUpInterval)
                    if limits.giveUp?() == true {
                        document.abandoned = true
                        rootNode = nil
                        return
                    }
                }
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    document.problems += syntaxProblems(parser, input: buffer)
                    rootNode = nil
                    return
                }
                if event.type == YAML_SCALAR_EVENT, event.data.scalar.length == 0,
                   event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
                   let (skipped, colour) = SyntaxDiagnosis.commentedColour(after: Int(event.start_mark.index), in: buffer) {
                    // Parses, as null: the colour would be dropped without a word.
                    document.problems.append(document.problem(SyntaxDiagnosis.commentedColourMessage(colour), at: YAMLMark(
                        line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1 + skipped)))
                }
                running = handle(&event) && !failed
                yaml_event_delete(&event)
            }
        }
        if !failed, let rootNode { document.root = document.node(rootNode) }
    }

    /// Handles one event; false when parsing should stop.
    mutating func handle(_ event: inout yaml_event_t) -> Bool {
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                document.problems.append(document.problem(
                    "a second YAML document starts here; the file must hold exactly one", at: mark))
                return false
            }
            return true
        case YAML_STREAM_END_EVENT:
            return false
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let style: YAMLNode.Style = switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
            let start = UInt32(textCount)
            if let value = scalar.value, scalar.length > 0 { appendText(value, scalar.length) }
            let index = append(RawNode(
                kind: RawNode.scalar, style: style.rawValue, tag: tag(scalar.tag, at: mark),
                line: UInt32(mark.line), column: UInt32(mark.column), start: start, count: UInt32(scalar.length)))
            if let anchor = scalar.anchor { define(String(cString: anchor), index, Extent(size: 1, height: 0)) }
            return add(index, size: 1, height: 0)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let flow = isMapping ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            let tagPointer = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
            let anchorPointer = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            guard frames.count < limits.maxDepth else {
                fail("the document nests deeper than \(limits.maxDepth) levels", at: mark)
                return false
            }
            let index = append(RawNode(
                kind: isMapping ? RawNode.mapping : RawNode.sequence,
                style: (flow ? YAMLNode.Style.flow : .block).rawValue, tag: tag(tagPointer, at: mark),
                line: UInt32(mark.line), column: UInt32(mark.column), start: 0, count: 0))
            var frame = Frame(node: index, scratchStart: scratch.count, isMapping: isMapping)
            if let anchorPointer {
                let anchor = String(cString: anchorPointer)
                // Registered now but without an extent: an alias to it from inside is recursive.
                anchors[anchor] = index
                extents[index] = nil
                openAnchors.append(anchor)
                frame.anchored = true
            }
            frames.append(frame)
            return true
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return close()
        case YAML_ALIAS_EVENT:
            return alias(String(cString: event.data.alias.anchor), at: mark)
        default:
            return true
        }
    }

    mutating func appendText(_ value: UnsafePointer<UInt8>, _ length: Int) {
        if textCount + length > document.text.count {
            document.text.append(contentsOf: repeatElement(0, count: textCount + length - document.text.count))
        }
        document.text.withUnsafeMutableBufferPointer { buffer in
            (buffer.baseAddress.map { $0 + textCount })?.update(from: value, count: length)
        }
        textCount += length
    }

    mutating func append(_ raw: RawNode) -> Int32 {
        document.nodes.append(raw)
        realNodes += 1
        expandedNodes += 1
        return Int32(document.nodes.count - 1)
    }

    mutating func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at mark: YAMLMark) -> UInt16 {
        guard let pointer else { return 0 }
        let tag = String(cString: pointer)
        if let known = tagIndex[tag] { return known }
        let maxTags = min(limits.maxTags, Int(UInt16.max) - 1)
        guard document.tags.count < maxTags else {
            fail("the file uses more than \(maxTags) different tags", at: mark)
            return 0
        }
        document.tags.append(tag)
        let index = UInt16(truncatingIfNeeded: document.tags.count)
        tagIndex[tag] = index
        return index
    }

    mutating func define(_ anchor: String, _ node: Int32, _ extent: Extent) {
        anchors[anchor] = node
        extents[node] = extent
    }

    /// Puts a finished node into the open collection (or makes it the root).
    mutating func add(_ node: Int32, size: UInt64, height: Int) -> Bool {
        guard !frames.isEmpty else {
            rootNode = node
            return true
        }
        let last = frames.count - 1
        if frames[last].isMapping, (scratch.count - frames[last].scratchStart) % 2 == 0, isMergeKey(node) {
            frames[last].hasMergeKey = true
        }
        scratch.append(node)
        frames[last].size &+= size
        frames[last].height = max(frames[last].height, height)
        return true
    }

    func isMergeKey(_ node: Int32) -> Bool {
        let raw = document.nodes[Int(node)]
        guard raw.kind == RawNode.scalar, raw.style == YAMLNode.Style.plain.rawValue, raw.tag == 0, raw.count == 2 else { return false }
        let start = Int(raw.start)
        return document.text[start] == UInt8(ascii: "<") && document.text[start + 1] == UInt8(ascii: "<")
    }

    mutating func close() -> Bool {
        guard let frame = frames.popLast() else { return true }
        if frame.hasMergeKey, !applyMerges(from: frame.scratchStart) { document.failedMerges.insert(frame.node) }
        let start = UInt32(document.children.count)
        let count = scratch.count - frame.scratchStart
        document.children.append(contentsOf: scratch[frame.scratchStart...])
        scratch.removeSubrange(frame.scratchStart...)
        document.nodes[Int(frame.node)].start = start
        document.nodes[Int(frame.node)].count = UInt32(count)
        let height = frame.height + 1
        let raw = document.nodes[Int(frame.node)]
        let mark = YAMLMark(line: Int(raw.line), column: Int(raw.column))
        guard height <= limits.maxDepth else {
            fail("aliases nest the document deeper than \(limits.maxDepth) levels", at: mark)
            return false
        }
        if frame.anchored, let anchor = openAnchors.popLast(), anchors[anchor] == frame.node {
            extents[frame.node] = Extent(size: frame.size, height: height)
        }
        return add(frame.node, size: frame.size, height: height)
    }

    mutating func alias(_ anchor: String, at mark: YAMLMark) -> Bool {
        let placeholder = { (builder: inout YAMLBuilder, message: String) -> Bool in
            builder.document.problems.append(builder.document.problem(message, at: mark))
            let start = UInt32(builder.textCount)
            let index = builder.append(RawNode(
                kind: RawNode.scalar, style: YAMLNode.Style.plain.rawValue, tag: 0,
                line: UInt32(mark.line), column: UInt32(mark.column), start: start, count: 0))
            builder.document.placeholders.insert(index)
            return builder.add(index, size: 1, height: 0)
        }
        guard let target = anchors[anchor] else {
            return placeholder(&self, "alias *\(anchor) has no anchor &\(anchor) before it")
        }
        guard let extent = extents[target] else {
            return placeholder(&self, "alias *\(anchor) is inside the node it names; recursive aliases are not allowed")
        }
        expandedNodes &+= extent.size
        if expandedNodes - realNodes > UInt64(limits.maxAliasExpansion) {
            fail("aliases expand the document by more than \(limits.maxAliasExpansion) nodes; "
                 + "is this an alias bomb (\"billion laughs\")?", at: mark)
            return false
        }
        let index = append(RawNode(
            kind: RawNode.alias, style: 0, tag: 0,
            line: UInt32(mark.line), column: UInt32(mark.column), start: UInt32(target), count: 0))
        return add(index, size: extent.size, height: extent.height)
    }

    /// Records a problem that stops parsing; the document gets no root.
    mutating func fail(_ message: String, at mark: YAMLMark) {
        failed = true
        document.problems.append(document.problem(message, at: mark))
        rootNode = nil
        frames.removeAll()
    }
}
