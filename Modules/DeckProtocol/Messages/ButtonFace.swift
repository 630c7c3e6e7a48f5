/// The live face of one button (docs/faces.md §2, §4): what a device shows
/// on it besides the layout. Sent as `buttonFace` at protocol level 8, and
/// listed in `welcome` and `layout` as `faces`.
public struct ButtonFace: Hashable, Sendable {
    /// 0-based page.
    public var page: Int
    /// 0-based slot on the page.
    public var index: Int
    /// Shown instead of the button's (or its state's) name; nil: the name.
    public var title: String?
    /// The id of one of the button's `states`; nil: state 0, the button as written.
    public var state: String?
    /// An image a plugin sent; nil: none.
    public var image: FaceImageReference?
    /// A one-shot flash sent with this change; never in `faces` lists.
    public var flash: FaceFlash?

    /// Makes a face.
    public init(page: Int, index: Int, title: String? = nil, state: String? = nil, image: FaceImageReference? = nil,
                flash: FaceFlash? = nil) {
        self.page = page
        self.index = index
        self.title = title
        self.state = state
        self.image = image
        self.flash = flash
    }

    /// True when title, state and image are all nil: the button as the layout has it.
    public var isDefault: Bool { title == nil && state == nil && image == nil }
}

/// `{hash, type, url, data?}`: where a face's image is.
public struct FaceImageReference: Hashable, Sendable {
    /// Lower-case hex SHA-256 of the bytes.
    public var hash: String
    /// `image/png`, `image/jpeg` or `image/svg+xml`.
    public var type: String
    /// `/faces/HASH.png|.jpg|.svg` on the web listener.
    public var url: String
    /// The bytes themselves, on TCP device connections only (base64 on the wire).
    public var data: [UInt8]?

    /// Makes a reference.
    public init(hash: String, type: String, url: String, data: [UInt8]? = nil) {
        self.hash = hash
        self.type = type
        self.url = url
        self.data = data
    }
}

/// A one-shot flash: red for `alert` (it failed), green for `ok`.
public enum FaceFlash: String, CaseIterable, Hashable, Sendable {
    /// Something failed.
    case alert
    /// It worked.
    case ok
}
