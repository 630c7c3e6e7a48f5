// A scripted session of a phone: tap a button, hold and drag another one to
// the next page by dwelling at the right edge, drop it, and take the host's
// answer. Exits 1 when the modules do not behave as the contract says, so
// `make test` running it is a check, not a demo.
import DeckGeometry
import DeckGestures
import DeckModel
import DeckProtocol
import Foundation

func scenario() throws -> Bool {
    let files = DeckButton(name: "Files", icon: "folder", action: .open("~"))
    let build = DeckButton(name: "Build", action: .run(command: "make"))
    var hostLayout = DeckLayout.empty()
    try hostLayout.set(page: 0, index: 0, button: files)
    try hostLayout.set(page: 0, index: 1, button: build)
    try hostLayout.set(page: 1, index: 4, button: DeckButton(name: "Mail", action: .open("mailto:a@b.c")))

    var phone = try DeviceController(layout: hostLayout, grid: try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3),
                                     protocolLevel: 7)
    try phone.touch(.down(CGPoint(x: 200, y: 60), at: 0))
    try phone.touch(.up(CGPoint(x: 201, y: 61), at: 0.1))
    try phone.touch(.down(CGPoint(x: 60, y: 60), at: 1))
    try phone.clock(1.45)
    try phone.touch(.move(CGPoint(x: 70, y: 60), at: 1.5))
    try phone.touch(.move(CGPoint(x: 370, y: 300), at: 1.6))
    print(phone.render(at: 1.6))
    try phone.clock(2.1)
    try phone.touch(.move(CGPoint(x: 200, y: 300), at: 2.3))
    try phone.touch(.up(CGPoint(x: 200, y: 300), at: 2.4))
    print(phone.render(at: 2.4))
    print(phone.log.joined(separator: "\n"))
    print("to send: \(phone.outbox.joined(separator: "\n         "))")

    // The host runs the same move and broadcasts its layout.
    try hostLayout.move(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 7, expecting: files)
    let optimistic = phone.layout.layout
    try phone.hostSent(HostMessage.layout(profile: "default", revision: 2, layout: hostLayout).line(), at: 2.5)
    let sent = try ClientMessage.decode(Array(phone.outbox.first?.utf8 ?? "".utf8))
    let expected = ClientMessage(id: 1, .moveButton(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 7, button: files))
    return phone.outbox.count == 1 && sent == expected && optimistic == hostLayout
        && phone.layout.layout == hostLayout
        && phone.log.contains { $0.hasSuffix("run 0/1") } && phone.log.contains { $0.hasSuffix("page 1") }
}

do {
    guard try scenario() else {
        FileHandle.standardError.write(Data("DeviceApp: the session did not behave as the contract says (see above)\n".utf8))
        exit(1)
    }
    print("DeviceApp: ok")
} catch {
    FileHandle.standardError.write(Data("DeviceApp: \(error)\n".utf8))
    exit(1)
}
