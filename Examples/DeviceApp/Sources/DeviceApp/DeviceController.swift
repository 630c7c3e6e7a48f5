import DeckGeometry
import DeckGestures
import DeckModel
import DeckProtocol
import Foundation

/// What a device app's view model does with the deck modules: feeds its own
/// touch events and clock to the arrange session, performs the actions
/// (run, settings, move), keeps the optimistic layout copy, and draws from
/// the session's scene. The socket is left out: `outbox` holds the protocol
/// lines that would be sent, `hostSent(_:)` takes a line that arrived.
struct DeviceController {
    private(set) var session: ArrangeSession
    private(set) var layout: DeviceLayout
    /// Protocol lines to send to the host, oldest first.
    private(set) var outbox: [String] = []
    private var nextID = 1
    /// What happened, for the console.
    private(set) var log: [String] = []

    init(layout: DeckLayout, grid: DeckGrid, protocolLevel: Int) throws {
        self.layout = DeviceLayout(layout)
        session = try ArrangeSession(grid: grid, layout: layout, protocolLevel: protocolLevel)
    }

    /// A touch from the screen, in the grid's coordinate space.
    mutating func touch(_ event: TouchEvent) throws {
        try perform(session.handle(.touch(event)))
    }

    /// The display link or a timer fired: a real app schedules one at
    /// `session.deadline` instead of polling.
    mutating func clock(_ time: TimeInterval) throws {
        try perform(session.handle(.tick(time)))
    }

    /// A line from the host. A `layout` replaces the local copy, whatever it
    /// says; a `lock` ends arrange mode (a lifted button goes back).
    mutating func hostSent(_ line: [UInt8], at time: TimeInterval) throws {
        switch try HostMessage.decode(line) {
        case .layout(_, let revision, let hostLayout, _, _):
            layout.receive(hostLayout: hostLayout)
            session.show(layout.layout)
            log.append("host layout (revision \(revision)) replaces the local copy")
        case .lock(let locked) where locked:
            try perform(session.handle(.app(.hostLocked, at: time)))
        case let other:
            log.append("host sent \(other.type)")
        }
    }

    private mutating func perform(_ outputs: [ArrangeOutput]) throws {
        for output in outputs {
            log.append(String(format: "%6.3f  ", output.time) + describe(output.action))
            guard case .move(let from, let to) = output.action else { continue }
            // The same DeckModel move the host runs, applied at once.
            guard let request = try layout.drop(from: from, to: to) else { continue }
            session.show(layout.layout)
            let message = ClientMessage(id: .int(nextID), .moveButton(
                fromPage: request.fromPage, fromIndex: request.fromIndex,
                toPage: request.toPage, toIndex: request.toIndex, button: request.button))
            nextID += 1
            outbox.append(String(decoding: message.line().dropLast(), as: UTF8.self))
        }
    }

    private func describe(_ action: ArrangeAction) -> String {
        switch action {
        case .hold(let slot, let hint): "hold \(slot): \"\(hint.text)\" \(hint.placement.edge.rawValue) the button"
        case .lift(let slot): "lift \(slot)"
        case .target(let slot): "target \(slot.map(\.description) ?? "none")"
        case .page(let page): "page \(page)"
        case .move(let from, let to): "move \(from) -> \(to)"
        case .back(let slot): "back \(slot)"
        case .settings(let slot): "settings of \(slot)"
        case .run(let slot): "run \(slot)"
        case .arrange(let on): "arrange mode \(on ? "on" : "off")"
        }
    }

    /// The visible page as text: the name of each button (`[ ]` for an
    /// empty slot), `*` on the target, the lifted tile's position below.
    func render(at time: TimeInterval) -> String {
        let scene = session.scene
        var lines = ["page \(scene.page + 1) of \(scene.pageCount)\(scene.arranging ? " (arranging)" : ""), strip offset \(scene.stripOffset)"]
        let grid = session.grid
        for row in 0..<grid.rows {
            let cells = (0..<grid.columns).map { column -> String in
                let slot = SlotID(page: scene.page, index: row * grid.columns + column)
                let name = slot == scene.lifted?.source ? "" : layout.layout.button(page: slot.page, index: slot.index)?.name ?? ""
                let tilt = scene.rotation(of: slot, at: time, reduceMotion: false)
                let mark = slot == scene.target ? "*" : (tilt != 0 ? "~" : " ")
                return mark + "[" + name.padding(toLength: 8, withPad: " ", startingAt: 0) + "]"
            }
            lines.append(cells.joined(separator: " "))
        }
        if let lifted = scene.lifted {
            lines.append("lifted \(lifted.source) drawn at (\(Int(lifted.center.x)), \(Int(lifted.center.y))) × \(lifted.scale)")
        }
        return lines.joined(separator: "\n")
    }
}
