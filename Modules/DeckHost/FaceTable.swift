import DeckModel
import DeckProtocol
import DeckWeb

/// Who asked for a face change, for log lines and for what a refusal becomes.
enum FaceSource: Hashable, Sendable, CustomStringConvertible {
    /// A plugin's message (a refusal is logged).
    case plugin(String)
    /// `setFace` from a control client (a refusal is its error reply).
    case control(String)
    /// A `follow` command of a `run` action (docs/faces.md §6).
    case follow(String)

    /// True for a control client's `setFace`, which is answered.
    var isControl: Bool {
        if case .control = self { true } else { false }
    }

    var description: String {
        switch self {
        case .plugin(let id): id.isEmpty ? "a plugin" : "plugin '\(id)'"
        case .control(let who): who
        case .follow(let command): "follow command '\(command)'"
        }
    }
}

/// One change to one button's face.
enum FaceChange: Hashable, Sendable {
    /// Title: text shown instead of the name; nil back to the name.
    case title(String?)
    /// A state id of the button; nil back to state 0.
    case state(String?)
    /// Image bytes (sniffed and bounded here); nil removes the image.
    case image([UInt8]?)
    /// A one-shot flash.
    case flash(FaceFlash)
    /// Title, state and image back to nil.
    case clear
}

/// What the face table is told (docs/faces.md §2–§6).
enum FaceInput: Sendable {
    /// Changes to the face of `slot`, in order. A plugin's `for` target is
    /// resolved by the caller into one input per matching slot; `follow`
    /// feeds the same input for its slot.
    case change(DeckSlot, [FaceChange], from: FaceSource)
    /// The committed layout changed (edit, move, reload, profile switch, restore).
    case layoutChanged(DeckLayout)
    /// A plugin's process ended: the states and images it set go (its titles
    /// go through the plugin manager, which clears them itself).
    case pluginEnded(String)
    /// The frame the last ``FaceAction/scheduleFrame(_:)`` asked for is over.
    case frameTick
}

/// What the host does for the face table, in order.
enum FaceAction: Equatable, Sendable {
    /// `buttonFace` to every client at level 8 and up (the host adds the
    /// image's bytes for TCP devices).
    case sendFace(ButtonFace)
    /// `buttonState` to every client below level 8: the title changed.
    case sendTitle(DeckSlot, String?)
    /// Make an image available at `/faces/` (first face to show it).
    case storeImage(FaceImage)
    /// No face shows this image any more.
    case forgetImage(hash: String)
    /// Call back with ``FaceInput/frameTick`` when `end` says.
    case scheduleFrame(FrameEnd)
    /// The change was refused and nothing changed: an error reply for a
    /// control client, a log line otherwise.
    case refuse(ErrorCode, String)
}

/// When the frame a ``FaceAction/scheduleFrame(_:)`` asks for ends.
enum FrameEnd: Equatable, Sendable {
    /// Once the loop has handled everything its wake-up brought: a plugin's
    /// `setState` and `setTitle`, written back to back and read together,
    /// go out as one face, never as a new state under the old title.
    case turnEnd
    /// After 16 ms.
    case frame
}

/// The live faces of the buttons: a pure value. The host feeds it inputs and
/// performs the actions it returns; tests drive it directly.
///
/// Coalescing: a change when no frame is running is sent once the loop's
/// turn ends (what else the same wake-up brought rides with it) and starts a
/// 16 ms frame; changes within the frame only mark their button, and the
/// frame's end sends each marked button's newest face once. So a flood of
/// `setState` costs each button one `buttonFace` per frame, and nothing queues.
struct FaceTable: Sendable {
    /// One button's live face.
    struct Face: Hashable, Sendable {
        var title: String?
        var state: String?
        var image: FaceImage?

        var isDefault: Bool { title == nil && state == nil && image == nil }
    }

    // Not private: FaceTable+Layout.swift works on them too.
    var layout: DeckLayout
    var faces: [DeckSlot: Face] = [:]
    /// How many faces show each image.
    var imageUses: [String: Int] = [:]
    /// Buttons to send at the end of the frame, with the flash to carry.
    var pending: [DeckSlot: FaceFlash?] = [:]
    /// The title each slot's level-7 devices were last told (absent: none).
    var shownTitles: [DeckSlot: String] = [:]
    /// The image each slot's devices were last sent (absent: none).
    var shownImages: [DeckSlot: String] = [:]
    /// Bytes of new images the next frames may still send (``ImageBudget``).
    private(set) var imageCredit = ImageBudget.burst
    /// The frame running, nil when none.
    private var frame: FrameEnd?

    /// How many bytes of new images the faces send, across all buttons: each
    /// goes inline (base64) to every level-8 TCP device, so a plugin that
    /// sends a new 180 KB image for each of ten buttons every frame wrote
    /// ~90 MB/s to each device, and one that read 2 MB/s was closed for
    /// not reading its output within a second (an audit's finding;
    /// PROTOCOL.md §9: the others are not slowed). Album art or a scene's
    /// thumbnail changes a few times a minute; a face whose image would pass
    /// the budget waits, newest wins, for the frame that has room.
    enum ImageBudget {
        /// Two of the largest images at once (``FaceImage/maximumBytes``).
        static let burst = 2 * FaceImage.maximumBytes
        /// Regained each 16 ms frame: 16 KiB, ~1 MiB a second.
        static let perFrame = 16 << 10
    }

    /// The most bytes of images the faces may show at once, each image
    /// counted once. Every `welcome` and `layout` lists the faces, and a TCP
    /// device gets each image's bytes inline (base64, 4/3 as many) the first
    /// time: with 40 images of 256 KiB shown, a device that connected was
    /// closed before it could read its `welcome` (more than its 8 MiB output
    /// queue, PROTOCOL.md §9). 3 MiB is 4 MiB of base64, beside a layout
    /// of at most 2 MiB (``DeckConstants/maximumLayoutBytes``); twelve of the
    /// largest images, or forty album covers of 75 KB.
    static let maximumShownImageBytes = 3 << 20

    init(layout: DeckLayout) {
        self.layout = layout
    }

    /// The face of `slot` (default when none was set).
    func face(_ slot: DeckSlot) -> Face { faces[slot] ?? Face() }

    /// Every non-default face, in slot order, as `welcome` and `layout` list them.
    var current: [ButtonFace] {
        faces.keys.sorted().compactMap { slot in
            guard let face = faces[slot], !face.isDefault else { return nil }
            return ButtonFace(page: slot.page, index: slot.index, title: face.title, state: face.state,
                              image: face.image.map(Self.reference))
        }
    }

    /// The bytes of the images faces show, each counted once
    /// (``maximumShownImageBytes``); read only when a new image comes.
    var shownImageBytes: Int {
        var sizes: [String: Int] = [:]
        for case let image? in faces.values.map(\.image) { sizes[image.hash] = image.bytes.count }
        return sizes.values.reduce(0, +)
    }

    /// The images faces show now, by hash.
    var imageHashes: Set<String> { Set(imageUses.keys) }

    mutating func handle(_ input: FaceInput) -> [FaceAction] {
        switch input {
        case let .change(slot, changes, source):
            return change(slot, changes, from: source)
        case .layoutChanged(let layout):
            return layoutChanged(layout)
        case .pluginEnded(let plugin):
            var actions: [FaceAction] = []
            for slot in faces.keys.sorted() {
                guard case .plugin(plugin, _, _)? = layout.button(page: slot.page, index: slot.index)?.action,
                      var face = faces[slot], face.state != nil || face.image != nil else { continue }
                face.state = nil
                actions += replaceImage(of: &face, with: nil)
                store(face, at: slot)
                pending[slot] = pending[slot] ?? .some(nil)
            }
            return actions + endTurnIfIdle()
        case .frameTick:
            // The turn's end is no frame: only 16 ms regain image credit.
            if frame == .frame { imageCredit = min(ImageBudget.burst, imageCredit + ImageBudget.perFrame) }
            frame = nil
            return startFrameIfIdle()
        }
    }

    // MARK: Changes

    private mutating func change(_ slot: DeckSlot, _ changes: [FaceChange], from source: FaceSource) -> [FaceAction] {
        // Taking a title away from a slot the layout emptied is already done
        // (the plugin manager clears its titles after the layout changed). A
        // control client's clear is still checked: its reply says whether the
        // slot holds a button (docs/faces.md §5).
        let onlyClears = changes.allSatisfy { $0 == .title(nil) || $0 == .clear }
        if onlyClears, !source.isControl, faces[slot] == nil, shownTitles[slot] == nil { return [] }
        do {
            try layout.checkRange(page: slot.page, index: slot.index)
        } catch {
            return [.refuse(.outOfRange, error.description)]
        }
        guard let button = layout.button(page: slot.page, index: slot.index) else {
            return [.refuse(.empty, "slot \(slot) is empty; a face needs a button")]
        }
        var face = self.face(slot)
        var flash: FaceFlash?
        var newImage: FaceImage??  // .none: unchanged; .some(nil): removed
        for change in changes {
            switch change {
            case .title(let title):
                face.title = title
            case .state(let id):
                guard let id else {
                    face.state = nil
                    continue
                }
                guard button.state(id) != nil else {
                    let ids = button.states.map(\.id)
                    let has = ids.isEmpty ? "it declares no states" : "its states are \(ids.joined(separator: ", "))"
                    return [.refuse(.notFound, "button '\(button.name)' at \(slot) has no state '\(id)' (\(has)); its face is unchanged")]
                }
                face.state = id == button.states.first?.id ? nil : id
            case .image(let bytes):
                guard let bytes else {
                    newImage = .some(nil)
                    continue
                }
                do {
                    newImage = .some(try FaceImage(bytes: bytes))
                } catch {
                    return [.refuse(.invalid, "\(error.description) for button '\(button.name)' at \(slot); its face is unchanged")]
                }
            case .flash(let kind):
                flash = kind
            case .clear:
                face = Face(title: nil, state: nil, image: face.image)
                newImage = .some(nil)
            }
        }
        if case let image?? = newImage, imageUses[image.hash] == nil {
            let freed = face.image.map { imageUses[$0.hash] == 1 ? $0.bytes.count : 0 } ?? 0
            let shown = shownImageBytes - freed
            guard shown + image.bytes.count <= Self.maximumShownImageBytes else {
                return [.refuse(.invalid, "the buttons' images would take \(shown + image.bytes.count) bytes, more than the \(Self.maximumShownImageBytes) all faces may show at once, so the image for button '\(button.name)' at \(slot) is refused; its face is unchanged")]
            }
        }
        var actions: [FaceAction] = []
        if let newImage { actions += replaceImage(of: &face, with: newImage) }
        let changed = face != self.face(slot)
        store(face, at: slot)
        if changed || flash != nil {
            // The newest flash wins within a frame; a change without one keeps a pending one.
            let kept = pending[slot] ?? nil
            pending[slot] = .some(flash ?? kept)
        }
        return actions + endTurnIfIdle()
    }

    private mutating func store(_ face: Face, at slot: DeckSlot) {
        faces[slot] = face.isDefault ? nil : face
    }

    /// Puts `image` on `face`, counting uses: the first use stores it, the last one forgets it.
    private mutating func replaceImage(of face: inout Face, with image: FaceImage?) -> [FaceAction] {
        guard face.image?.hash != image?.hash else { return [] }
        var actions: [FaceAction] = []
        if let image {
            imageUses[image.hash, default: 0] += 1
            if imageUses[image.hash] == 1 { actions.append(.storeImage(image)) }
        }
        if let old = face.image {
            imageUses[old.hash, default: 1] -= 1
            if imageUses[old.hash] == 0 {
                imageUses[old.hash] = nil
                actions.append(.forgetImage(hash: old.hash))
            }
        }
        face.image = image
        return actions
    }

    // MARK: Frames

    /// A change with no frame running goes at the turn's end, with the rest of the turn's.
    private mutating func endTurnIfIdle() -> [FaceAction] {
        guard frame == nil, !pending.isEmpty else { return [] }
        frame = .turnEnd
        return [.scheduleFrame(.turnEnd)]
    }

    private mutating func startFrameIfIdle() -> [FaceAction] {
        guard frame == nil else { return [] }
        // After a burst of images, frames go on (sending nothing) until the credit is whole again: the table has no clock.
        guard !pending.isEmpty || imageCredit < ImageBudget.burst else { return [] }
        var actions: [FaceAction] = []
        var waiting: [DeckSlot: FaceFlash?] = [:]
        for slot in pending.keys.sorted() {
            let face = self.face(slot)
            // An image a device already holds (another button shows it) goes by its hash alone.
            if let image = face.image, shownImages[slot] != image.hash, !shownImages.values.contains(image.hash) {
                guard image.bytes.count <= imageCredit else {
                    waiting[slot] = pending[slot]
                    continue
                }
                imageCredit -= image.bytes.count
            }
            shownImages[slot] = face.image?.hash  // nil removes the entry
            actions.append(.sendFace(ButtonFace(page: slot.page, index: slot.index, title: face.title, state: face.state,
                                                image: face.image.map(Self.reference), flash: pending[slot] ?? nil)))
            if shownTitles[slot] != face.title {
                shownTitles[slot] = face.title  // nil removes the entry
                actions.append(.sendTitle(slot, face.title))
            }
        }
        pending = waiting
        frame = .frame
        actions.append(.scheduleFrame(.frame))
        return actions
    }

    static func reference(_ image: FaceImage) -> FaceImageReference {
        FaceImageReference(hash: image.hash, type: image.kind.mediaType, url: image.path)
    }
}
