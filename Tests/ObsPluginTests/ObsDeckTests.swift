import DeckModel
import DeckPluginKit
import Testing
@testable import ObsPlugin

@Suite struct ObsDeckTests {
    let now = ContinuousClock.now

    func button(_ index: Int, _ command: String, _ settings: [String: DeckValue] = [:]) -> PluginButton {
        PluginButton(page: 0, index: index, name: "b\(index)", command: command, settings: settings)
    }

    func connectedDeck(_ buttons: [PluginButton]) -> ObsDeck {
        var deck = ObsDeck()
        _ = deck.setButtons(buttons)
        deck.status = .connected(obs: "29.0.2", webSocket: "5.1.0")
        return deck
    }

    func event(_ type: String, _ data: ObsFields) -> ObsEvent { ObsEvent(type: type, data: data) }

    @Test func sceneButtonsFollowTheProgramScene() {
        var deck = connectedDeck([button(0, "scene", ["scene": .string("Intro")]), button(1, "scene", ["scene": .string("Live")])])
        var fields = ObsFields()
        fields.sceneName = "Live"
        deck.live.apply(event("CurrentProgramSceneChanged", fields), now: now)
        let faces = deck.changedFaces(now: now)
        #expect(faces.map { $0.1 } == [ObsFace(), ObsFace(state: "active")])
        #expect(deck.changedFaces(now: now).isEmpty)  // nothing changed: nothing sent
    }

    @Test func aThousandSceneChangesEndOnTheLastWithOneFacePerButton() {
        var deck = connectedDeck([button(0, "scene", ["scene": .string("s0")]), button(1, "scene", ["scene": .string("s999")])])
        _ = deck.changedFaces(now: now)
        for index in 0..<1000 {
            var fields = ObsFields()
            fields.sceneName = "s\(index)"
            deck.live.apply(event("CurrentProgramSceneChanged", fields), now: now)
        }
        let faces = deck.changedFaces(now: now)
        #expect(faces.count == 1)
        #expect(faces.first?.1 == ObsFace(state: "active"))
        #expect(faces.first?.0.index == 1)
    }

    @Test func recordShowsItsStatesAndElapsedTime() {
        var deck = connectedDeck([button(0, "record")])
        var fields = ObsFields()
        fields.outputState = "OBS_WEBSOCKET_OUTPUT_STARTING"
        deck.live.apply(event("RecordStateChanged", fields), now: now)
        #expect(deck.changedFaces(now: now).first?.1 == ObsFace(state: "starting"))
        fields.outputState = "OBS_WEBSOCKET_OUTPUT_STARTED"
        deck.live.apply(event("RecordStateChanged", fields), now: now)
        #expect(deck.changedFaces(now: now + .seconds(65)).first?.1 == ObsFace(title: "1:05", state: "on"))
        fields.outputState = "OBS_WEBSOCKET_OUTPUT_STOPPED"
        deck.live.apply(event("RecordStateChanged", fields), now: now)
        #expect(deck.changedFaces(now: now).first?.1 == ObsFace())
    }

    @Test func muteFollowsTheInput() {
        var deck = connectedDeck([button(0, "mute", ["input": .string("Mic")])])
        #expect(deck.syncRequests.contains(ObsRequest(type: "GetInputMute", data: ["inputName": .string("Mic")])))
        var fields = ObsFields()
        fields.inputName = "Mic"
        fields.inputMuted = true
        deck.live.apply(event("InputMuteStateChanged", fields), now: now)
        #expect(deck.changedFaces(now: now).first?.1 == ObsFace(state: "muted"))
    }

    @Test func offlineAndUnauthorisedShowOnEveryButton() {
        var deck = ObsDeck()
        _ = deck.setButtons([button(0, "record"), button(1, "scene", ["scene": .string("A")])])
        #expect(deck.changedFaces(now: now).map { $0.1.title } == ["OBS offline", "OBS offline"])
        deck.status = .unauthorised("no")
        #expect(deck.changedFaces(now: now).map { $0.1.title } == ["OBS: password?", "OBS: password?"])
    }

    @Test func badSettingsAreNamedAndShown() {
        var deck = ObsDeck()
        let problems = deck.setButtons([button(3, "scene"), button(4, "mute", ["input": .int(3)]), button(5, "record", ["scen": .string("x")]),
                                        button(6, "teleport")])
        #expect(problems.count == 4)
        #expect(problems[0].contains("'b3'") && problems[0].contains("settings.scene"))
        #expect(problems[2].contains("settings.scen"))
        #expect(problems[3].contains("not a command of obs"))
        #expect(deck.changedFaces(now: now).allSatisfy { $0.1.title == "bad settings" })
    }

    @Test(arguments: [(0, "0:00"), (59, "0:59"), (60, "1:00"), (3599, "59:59"), (3600, "1:00:00"), (36610, "10:10:10")])
    func elapsedTime(_ seconds: Int, _ text: String) {
        #expect(ObsDeck.elapsed(.seconds(seconds)) == text)
    }
}

@Suite struct ObsEndpointTests {
    @Test(arguments: [("ws://127.0.0.1:4455", "127.0.0.1", 4455), ("ws://localhost:1/", "localhost", 1), ("ws://[::1]:80", "::1", 80)])
    func urls(_ url: String, _ host: String, _ port: Int) throws {
        let (parsedHost, parsedPort) = try ObsEndpoint.parse(url)
        #expect(parsedHost == host && parsedPort == port)
    }

    @Test(arguments: ["wss://127.0.0.1:4455", "http://x:1", "ws://host", "ws://:4455", "ws://h:0", "ws://h:99999", "ws://h:1/path"])
    func badURLs(_ url: String) {
        #expect(throws: ObsError.badURL(url)) { try ObsEndpoint.parse(url) }
    }

    @Test func theFirstButtonInLayoutOrderWinsAndDisagreementIsLogged() {
        let buttons = [PluginButton(page: 1, index: 0, name: "late", command: "record", settings: ["url": .string("ws://b:2")]),
                       PluginButton(page: 0, index: 5, name: "first", command: "record", settings: ["url": .string("ws://a:1"), "password": .string("p")])]
        let (endpoint, problems) = ObsEndpoint.from(buttons)
        #expect(endpoint.host == "a" && endpoint.port == 1 && endpoint.password == "p")
        #expect(problems.count == 1 && problems[0].contains("'late'") && !problems[0].contains("p\""))
    }
}
