import DeckModel

// `buttonFace` and the `faces` of `welcome` and `layout` (docs/faces.md §4).

extension JSONWriter {
    /// `"page","index","title","state","image"` and, for `buttonFace`, `"flash"`.
    mutating func writeFields(of face: ButtonFace, withFlash: Bool) {
        field("page", face.page)
        field("index", face.index)
        nullableField("title", face.title)
        nullableField("state", face.state)
        key("image")
        if let image = face.image {
            beginObject()
            field("hash", image.hash)
            field("type", image.type)
            field("url", image.url)
            if let data = image.data { field("data", Base64.encode(data)) }
            endObject()
        } else {
            null()
        }
        if withFlash { nullableField("flash", face.flash?.rawValue) }
    }

    /// `"faces":[…]`, left out when empty.
    mutating func write(faces: [ButtonFace]) {
        guard !faces.isEmpty else { return }
        field("faces", faces) { writer, face in
            writer.beginObject()
            writer.writeFields(of: face, withFlash: false)
            writer.endObject()
        }
    }
}

extension ButtonFace {
    /// Reads the fields of a face; a missing `title`, `state`, `image` or `flash` is null.
    init(fields: JSONFieldReader) throws(JSONError) {
        self.init(
            page: try fields.position("page"), index: try fields.position("index"),
            title: try fields.stringIfPresent("title"), state: try fields.stringIfPresent("state"),
            image: try fields.decodeIfPresent("image") { value throws(JSONError) in
                let image = try JSONFieldReader(value, expected: "an image object {hash, type, url}")
                let data = try image.stringIfPresent("data").map { text throws(JSONError) in
                    do { return try Base64.decode(text) } catch { throw JSONError.invalid("'data' must be base64: \(error)") }
                }
                return FaceImageReference(hash: try image.string("hash"), type: try image.string("type"),
                                          url: try image.string("url"), data: data)
            },
            flash: try fields.decodeIfPresent("flash") { value throws(JSONError) in
                try JSONFieldReader.oneOf(value, FaceFlash.self)
            })
    }
}

extension JSONFieldReader {
    /// `faces`, empty when absent.
    func faces() throws(JSONError) -> [ButtonFace] {
        try arrayIfPresent("faces") { value throws(JSONError) in
            try ButtonFace(fields: JSONFieldReader(value, expected: "a face object"))
        }
    }

    /// A non-negative integer.
    func position(_ key: StaticString) throws(JSONError) -> Int {
        let number = try int(key)
        guard number >= 0 else { throw JSONError.invalid("'\(key)' must not be negative, not \(number)") }
        return number
    }
}
