// deck-layout-replay: runs layout edits through DeckModel (DeckLayout.move,
// set, clear) and DeckGestures' DeviceLayout.drop, one JSON case a line, so
// the web engine's port of the same rules can be compared with them
// (Apps/web/test/differential.test.mjs). Not a user-facing tool.
//
// A case: {"layout": LAYOUT, "op": "move", "fromPage", "fromIndex", "toPage", "toIndex", "button"}
//         {"layout": LAYOUT, "op": "set", "page", "index", "button"}
//         {"layout": LAYOUT, "op": "clear", "page", "index", "button"?}
//         {"layout": LAYOUT, "op": "drop", "fromPage", "fromIndex", "toPage", "toIndex"}
// Prints per case: "ok LAYOUT" (drop: "ok REQUEST LAYOUT"), "none" (a drop on
// its own slot), "error SENTENCE" (the edit was refused), or "invalid SENTENCE"
// (the case itself could not be read).
import DeckGestures
import DeckModel
import Foundation

func json(_ write: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// Nil when `edit` went through, else its refusal.
func attempt(_ edit: () throws(DeckModelError) -> Void) -> DeckModelError? {
    do throws(DeckModelError) {
        try edit()
        return nil
    } catch {
        return error
    }
}

/// The device's drop on its copy of `layout`: the request and the copy, or why not.
func drop(on layout: DeckLayout, from source: SlotID, to target: SlotID) -> String {
    var device = DeviceLayout(layout)
    do throws(DeckGesturesError) {
        guard let request = try device.drop(from: source, to: target) else { return "none" }
        let text = json { writer in
            writer.beginObject()
            writer.field("fromPage", request.fromPage)
            writer.field("fromIndex", request.fromIndex)
            writer.field("toPage", request.toPage)
            writer.field("toIndex", request.toIndex)
            writer.key("button")
            writer.write(request.button)
            writer.endObject()
        }
        return "ok \(text) " + json { $0.write(device.layout) }
    } catch {
        return "error \(error.description)"
    }
}

func run(_ line: Substring) -> String {
    do throws(JSONError) {
        return try JSONValue.read(Array(line.utf8), maximumDepth: 64, noun: "case") { root throws(JSONError) -> String in
            let fields = try JSONFieldReader(root, expected: "a case object")
            var layout = try fields.layout("layout")
            let op = try fields.string("op")
            let refusal: DeckModelError?
            switch op {
            case "move":
                let (fromPage, fromIndex) = (try fields.int("fromPage"), try fields.int("fromIndex"))
                let (toPage, toIndex, button) = (try fields.int("toPage"), try fields.int("toIndex"), try fields.button("button"))
                refusal = attempt { () throws(DeckModelError) in
                    try layout.move(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex, expecting: button)
                }
            case "set":
                let (page, index, button) = (try fields.int("page"), try fields.int("index"), try fields.button("button"))
                refusal = attempt { () throws(DeckModelError) in try layout.set(page: page, index: index, button: button) }
            case "clear":
                let (page, index, button) = (try fields.int("page"), try fields.int("index"), try fields.buttonIfPresent("button"))
                refusal = attempt { () throws(DeckModelError) in try layout.clear(page: page, index: index, expecting: button) }
            case "drop":
                let source = SlotID(page: try fields.int("fromPage"), index: try fields.int("fromIndex"))
                let target = SlotID(page: try fields.int("toPage"), index: try fields.int("toIndex"))
                return drop(on: layout, from: source, to: target)
            default:
                return "invalid op must be move, set, clear or drop, not '\(op)'"
            }
            if let refusal { return "error \(refusal.description)" }
            return "ok " + json { $0.write(layout) }
        }
    } catch {
        return "invalid \(error.description)"
    }
}

let input = CommandLine.arguments.count > 1
    ? (try? String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)) ?? ""
    : String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
var output = ""
for line in input.split(separator: "\n", omittingEmptySubsequences: true) { output += run(line) + "\n" }
FileHandle.standardOutput.write(Data(output.utf8))
