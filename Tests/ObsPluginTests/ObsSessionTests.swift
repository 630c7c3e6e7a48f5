import DeckModel
import Testing
@testable import ObsPlugin

/// The v5 session driven directly: no socket, no clock but the one passed in.
@Suite struct ObsSessionTests {
    let start = ContinuousClock.now

    func identified(password: String? = "pw") -> ObsSession {
        var session = ObsSession(password: password, now: start)
        _ = session.received(#"{"op":0,"d":{"obsWebSocketVersion":"5.1.0","rpcVersion":1}}"#, now: start)
        let actions = session.received(#"{"op":2,"d":{"negotiatedRpcVersion":1}}"#, now: start)
        #expect(actions == [.identified(webSocketVersion: "5.1.0")])
        return session
    }

    @Test func helloWithAuthenticationIsAnsweredWithTheFormula() throws {
        var session = ObsSession(password: "supersecretpassword", now: start)
        let actions = session.received(#"""
            {"op":0,"d":{"obsWebSocketVersion":"5.1.0","rpcVersion":1,"authentication":{"challenge":"+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=","salt":"lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI="}}}
            """#, now: start)
        guard case .send(let text)? = actions.first else { Issue.record("no Identify: \(actions)"); return }
        #expect(text.contains(#""op":1"#))
        #expect(text.contains(#""rpcVersion":1"#))
        #expect(text.contains(#""authentication":"1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4=""#))
        #expect(text.contains(#""eventSubscriptions":\#(ObsProtocol.eventSubscriptions)"#))
        #expect(!text.contains("supersecretpassword"))
    }

    @Test func aServerThatWantsAPasswordWhenNoneIsSetIsUnauthorised() {
        var session = ObsSession(password: nil, now: start)
        let actions = session.received(#"{"op":0,"d":{"rpcVersion":1,"authentication":{"challenge":"c","salt":"s"}}}"#, now: start)
        guard case .close(.unauthorised)? = actions.last else { Issue.record("\(actions)"); return }
    }

    @Test func closeCode4009IsUnauthorisedAndOthersUnreachable() {
        var refused = ObsSession(password: "x", now: start)
        guard case .close(.unauthorised)? = refused.closed(code: 4009, why: "").last else { Issue.record("not unauthorised"); return }
        var other = ObsSession(password: "x", now: start)
        guard case .close(.unreachable)? = other.closed(code: 1006, why: "reset").last else { Issue.record("not unreachable"); return }
    }

    @Test func aSocketThatEndsSaysSoOnce() {
        var ended = identified()
        #expect(ended.closed(code: nil, why: "OBS closed the connection").last == .close(.unreachable("OBS closed the connection")))
        var closed = identified()
        #expect(closed.closed(code: 1001, why: "OBS closed the WebSocket").last
            == .close(.unreachable("OBS closed the connection (close 1001): OBS closed the WebSocket")))
    }

    @Test func responsesAreMatchedByIDAndLateOnesDropped() throws {
        var session = identified()
        let (id, actions) = session.request(ObsRequest(type: "ToggleRecord"), now: start)
        let sent = try #require(id)
        #expect(actions.count == 1)
        let answer = #"{"op":7,"d":{"requestId":"\#(sent)","requestType":"ToggleRecord","requestStatus":{"result":true,"code":100},"responseData":{"outputActive":true}}}"#
        guard case .response(let response)? = session.received(answer, now: start).first else { Issue.record("no response"); return }
        #expect(response.ok && response.data.outputActive == true)
        #expect(session.received(answer, now: start).isEmpty)  // answered already: nothing
        #expect(session.pendingCount == 0)
    }

    @Test func aRequestWithoutAnAnswerInTimeMakesTheServerUnreachable() {
        var session = identified()
        _ = session.request(ObsRequest(type: "GetSceneList"), now: start)
        #expect(session.tick(now: start + .seconds(4)).isEmpty)
        let actions = session.tick(now: start + ObsSession.answerTimeout + .milliseconds(1))
        guard case .failed(_, let request, _)? = actions.first, case .close(.unreachable(let why))? = actions.last else {
            Issue.record("\(actions)"); return
        }
        #expect(request.type == "GetSceneList")
        #expect(why.contains("GetSceneList"))
    }

    @Test func aServerThatNeverGreetsTimesOut() {
        var session = ObsSession(password: nil, now: start)
        guard case .close(.unreachable)? = session.tick(now: start + .seconds(6)).last else { Issue.record("no timeout"); return }
    }

    @Test func batchResultsAreAnsweredInOrder() {
        var session = identified()
        let (ids, actions) = session.batch([ObsRequest(type: "GetVersion"), ObsRequest(type: "GetSceneList")], now: start)
        #expect(ids.count == 2)
        guard case .send(let text)? = actions.first else { Issue.record("no batch"); return }
        #expect(text.contains(#""op":8"#))
        let batchID = "d3"
        let reply = #"{"op":9,"d":{"requestId":"\#(batchID)","results":[{"requestId":"\#(ids[0])","requestType":"GetVersion","requestStatus":{"result":true,"code":100},"responseData":{"obsVersion":"29.0.2"}},{"requestId":"\#(ids[1])","requestType":"GetSceneList","requestStatus":{"result":true,"code":100},"responseData":{"currentProgramSceneName":"Live"}}]}}"#
        let responses = session.received(reply, now: start)
        #expect(responses.count == 2)
        guard case .response(let first)? = responses.first else { return }
        #expect(first.data.obsVersion == "29.0.2")
    }

    @Test func pendingRequestsAreBounded() {
        var session = identified()
        for _ in 0..<ObsSession.maximumPending { _ = session.request(ObsRequest(type: "GetStats"), now: start) }
        let (id, actions) = session.request(ObsRequest(type: "GetStats"), now: start)
        #expect(id == nil)
        guard case .failed? = actions.first else { Issue.record("not refused"); return }
        #expect(session.pendingCount == ObsSession.maximumPending)
    }

    @Test(arguments: [
        "not json", "[]", #"{"op":"0","d":{}}"#, #"{"op":0}"#, #"{"op":0,"d":{}}"#, #"{"op":4,"d":{}}"#,
        #"{"op":7,"d":{"requestId":"x"}}"#, String(repeating: "[", count: 100),
    ])
    func malformedMessagesEndTheSessionAsUnreachable(_ text: String) {
        var session = ObsSession(password: nil, now: start)
        guard case .close(.unreachable)? = session.received(text, now: start).last else { Issue.record("not closed"); return }
        #expect(session.received(#"{"op":0,"d":{"rpcVersion":1}}"#, now: start).isEmpty)  // over: nothing more
    }

    @Test func anEventBeforeIdentifiedIsOutOfTurn() {
        var session = ObsSession(password: nil, now: start)
        let actions = session.received(#"{"op":5,"d":{"eventType":"ExitStarted"}}"#, now: start)
        guard case .close(.unreachable(let why))? = actions.last else { Issue.record("\(actions)"); return }
        #expect(why.contains("out of turn"))
    }
}
