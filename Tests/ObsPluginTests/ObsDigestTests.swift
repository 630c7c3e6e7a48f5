import Testing
@testable import ObsPlugin

@Suite struct ObsDigestTests {
    /// The expected string is Python's hashlib and base64 over the same formula
    /// (obs-websocket's protocol.md gives the formula, not a worked example).
    @Test func authenticationStringMatchesTheFormula() {
        #expect(ObsDigest.authentication(password: "supersecretpassword", salt: "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI=",
                                         challenge: "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=") == "1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4=")
    }
}
