import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession
import PlumometerTestKit
import Testing

/// `serve`'s application without a socket: the events and the state carry the stream's objects byte for byte, the
/// routes, the Host/Origin/loopback policy, tare on the current pipeline, `--listen`'s addresses.
@Suite
struct ServeAppTests {
    /// A transport that keeps what is published.
    final class Transport: HTTPTransport {
        let address: ListenAddress
        var published: [String] = []
        init(_ address: ListenAddress) { self.address = address }
        func publish(_ text: String) { published.append(text) }
        var streamCount: Int { 0 }
        func service() throws {}
        func serviceDeadline() -> Int64? { nil }
        func stop() {}
    }

    static let address = ListenAddress(bytes: [127, 0, 0, 1], port: 8390)

    static func get(_ path: String, host: String? = "127.0.0.1:8390", method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, path: path, host: host, origin: nil, peerIsLoopback: true)
    }

    static func post(
        _ path: String,
        origin: String?,
        loopback: Bool = true,
        host: String = "127.0.0.1:8390"
    )
        -> HTTPRequest
    {
        HTTPRequest(method: "POST", path: path, host: host, origin: origin, peerIsLoopback: loopback)
    }

    /// The three plums of ``SessionTests`` served: the application after the replay, what it published, and the
    /// stream's lines of the same recording.
    static func served() throws -> (app: ServeApp, transport: Transport, session: Session, lines: [Substring]) {
        let scene = SessionTests.Scene(SessionTests.recording(SessionTests.threePlums))
        let lines = try scene.replay()
        let transport = Transport(address)
        let (app, session) = try scene.run {
            let input = try RecordingFile.input("/plums.evemu", selector: nil)
            let app = ServeApp(address: address)
            app.transport = transport
            let session = try Session(output: app)
            app.session = session
            let source = try session.openReadings(.recording(input, pacing: Pacing(speed: nil)))
            try session.run(source)
            return (app, session)
        }
        return (app, transport, session, lines)
    }

    static func body(_ answer: HTTPAnswer) -> (status: Int, response: HTTPResponse)? {
        guard case .response(let response) = answer else { return nil }
        return (response.status, response)
    }

    @Test func eventsAndStateCarryTheStreamsObjectsByteForByte() throws {
        let (app, transport, session, lines) = try Self.served()
        _ = session
        #expect(transport.published.count == lines.count)
        #expect(transport.published.first == "event: device\ndata: " + lines[0] + "\n\n")
        for (event, line) in zip(transport.published.dropFirst(), lines.dropFirst()) {
            #expect(event == "event: frame\ndata: " + line + "\n\n")
        }
        #expect(app.stateJSON == "{\"device\":\(lines[0]),\"frame\":\(lines[lines.count - 1]),\"status\":null}\n")
        guard case .events(let headers, let initial) = app.answer(Self.get("/readings")) else {
            Issue.record("/readings is no event stream")
            return
        }
        #expect(headers.contains(HTTPHeader("Content-Type", "text/event-stream; charset=utf-8")))
        #expect(initial.hasSuffix("event: device\ndata: \(lines[0])\n\nevent: frame\ndata: \(lines.last!)\n\n"))
    }

    @Test func routesAnswerWithTheirStatusAndSecurityHeaders() throws {
        let app = ServeApp(address: Self.address)
        let page = try #require(Self.body(app.answer(Self.get("/"))))
        #expect(page.status == 200)
        #expect(page.response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.response.header("Content-Security-Policy") == "default-src 'self'; frame-ancestors 'none'")
        #expect(page.response.header("X-Content-Type-Options") == "nosniff")
        #expect(page.response.body == ServePage.html)
        #expect(Self.body(app.answer(Self.get("/plumometer.js")))?.response.body == ServePage.script)
        #expect(Self.body(app.answer(Self.get("/plumometer.css")))?.response.body == ServePage.css)
        #expect(
            Self.body(app.answer(Self.get("/api/state")))?.response.body
                == "{\"device\":null,\"frame\":null,\"status\":null}\n"
        )
        #expect(Self.body(app.answer(Self.get("/missing")))?.status == 404)
        let wrong = try #require(Self.body(app.answer(Self.get("/api/tare"))))
        #expect(wrong.status == 405)
        #expect(wrong.response.header("Allow") == "POST")
        #expect(Self.body(app.answer(Self.get("/readings", method: "POST")))?.status == 405)
        // No device yet: nothing to tare.
        #expect(Self.body(app.answer(Self.post("/api/tare", origin: "http://127.0.0.1:8390")))?.status == 409)
    }

    @Test func theHostMustNameThisServer() {
        let policy = ServePolicy(address: Self.address)
        for host in [
            "127.0.0.1:8390", "localhost:8390", "LOCALHOST:8390", "plums.localhost:8390", "[::1]:8390",
            "127.0.0.2:8390",
        ] {
            #expect(policy.hostRefusal(Self.get("/", host: host)) == nil, "\(host)")
        }
        for host in [
            "evil.example:8390", "evil.example", "127.0.0.1", "127.0.0.1:80", "localhost:8391", "10.0.0.1:8390",
            "127.0.0.1:8390x", "[::2]:8390", ":8390", "",
        ] {
            #expect(policy.hostRefusal(Self.get("/", host: host))?.status == 421, "\(host)")
        }
        #expect(policy.hostRefusal(Self.get("/", host: nil))?.status == 421)
        // Every address: any IP literal (a rebinding attack needs a name), never another name.
        let everywhere = ServePolicy(address: ListenAddress(bytes: [0, 0, 0, 0], port: 8390))
        #expect(everywhere.hostRefusal(Self.get("/", host: "192.168.1.20:8390")) == nil)
        #expect(everywhere.hostRefusal(Self.get("/", host: "evil.example:8390"))?.status == 421)
        let lan = ServePolicy(address: ListenAddress(bytes: [192, 168, 1, 20], port: 8390))
        #expect(lan.hostRefusal(Self.get("/", host: "192.168.1.20:8390")) == nil)
        #expect(lan.hostRefusal(Self.get("/", host: "192.168.1.21:8390"))?.status == 421)
    }

    @Test func aPostNeedsThePagesOriginAndOnBeyondLoopbackThisMachine() {
        let policy = ServePolicy(address: Self.address)
        #expect(policy.postRefusal(Self.post("/api/tare", origin: "http://127.0.0.1:8390")) == nil)
        #expect(
            policy.postRefusal(Self.post("/api/tare", origin: "http://localhost:8390", host: "localhost:8390")) == nil
        )
        #expect(policy.postRefusal(Self.post("/api/tare", origin: nil))?.status == 403)
        #expect(policy.postRefusal(Self.post("/api/tare", origin: "null"))?.status == 403)
        #expect(policy.postRefusal(Self.post("/api/tare", origin: "http://evil.example"))?.status == 403)
        #expect(policy.postRefusal(Self.post("/api/tare", origin: "https://127.0.0.1:8390"))?.status == 403)
        #expect(policy.postRefusal(Self.post("/api/tare", origin: "http://localhost:8390"))?.status == 403)
        let lan = ServePolicy(address: ListenAddress(bytes: [192, 168, 1, 20], port: 8390))
        let fromLAN = Self.post(
            "/api/tare",
            origin: "http://192.168.1.20:8390",
            loopback: false,
            host: "192.168.1.20:8390"
        )
        #expect(lan.postRefusal(fromLAN)?.status == 403)
        var fromHere = fromLAN
        fromHere.peerIsLoopback = true
        #expect(lan.postRefusal(fromHere) == nil)
        #expect(lan.postRefusal(Self.get("/api/state", host: "192.168.1.20:8390")) == nil)
    }

    @Test func tareClearAndCarrierActOnThePipelineAndAnswerTheState() throws {
        let (app, transport, session, _) = try Self.served()
        _ = session
        let before = transport.published.count
        let refused = try #require(Self.body(app.answer(Self.post("/api/tare", origin: "http://evil.example"))))
        #expect(refused.status == 403)
        #expect(transport.published.count == before, "a refused tare changes nothing")
        let tared = try #require(Self.body(app.answer(Self.post("/api/tare", origin: "http://127.0.0.1:8390"))))
        #expect(tared.status == 200)
        #expect(tared.response.header("Content-Type") == "application/json")
        #expect(tared.response.body.hasSuffix(",\"status\":\"tared\"}\n"))
        #expect(tared.response.body.contains("\"grams\":0.00}"))
        #expect(!tared.response.body.contains("\"grams\":120"))
        #expect(transport.published.count == before + 1)
        #expect(transport.published.last?.hasPrefix("event: frame\ndata: {\"type\":\"frame\"") == true)
        let carrier = try #require(Self.body(app.answer(Self.post("/api/carrier", origin: "http://127.0.0.1:8390"))))
        #expect(carrier.response.body.contains("\"status\":\"carrier: put exactly one contact down (3 are down)\""))
        let cleared = try #require(Self.body(app.answer(Self.post("/api/clear", origin: "http://127.0.0.1:8390"))))
        #expect(cleared.response.body.hasSuffix(",\"status\":\"tare cleared\"}\n"))
        #expect(cleared.response.body.contains("\"grams\":120.00}"))
    }

    @Test func listenAddressesAreReadAsWritten() {
        #expect(ListenAddress.parse("127.0.0.1:8390") == .standard)
        #expect(ListenAddress.parse("localhost:0") == ListenAddress(bytes: [127, 0, 0, 1], port: 0))
        #expect(ListenAddress.parse("[::1]:8390")?.host == "[::1]")
        #expect(ListenAddress.parse("[::1]:8390")?.isLoopback == true)
        #expect(ListenAddress.parse("[::]:80")?.isUnspecified == true)
        #expect(ListenAddress.parse("[fe80::1:2]:1")?.host == "[fe80::1:2]")
        #expect(ListenAddress.parse("[2001:db8:0:0:1:0:0:1]:1")?.host == "[2001:db8::1:0:0:1]")
        #expect(ListenAddress.parse("[::ffff:192.0.2.1]:1")?.bytes.suffix(4) == [192, 0, 2, 1])
        #expect(ListenAddress.parse("0.0.0.0:8390")?.isLoopback == false)
        #expect(ListenAddress.parse("192.168.1.20:8390")?.url == "http://192.168.1.20:8390/")
        for bad in [
            "", "8390", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "256.0.0.1:1", "1.2.3:1",
            "example.com:80", "::1:80", "[::1::2]:1", "[1:2:3:4:5:6:7:8:9]:1", "[12345::]:1", "01.2.3.4.5:1",
        ] {
            #expect(ListenAddress.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func aHeldSourceKeepsTheRunGoingAfterItsEnd() throws {
        final class Ended: FrameSource {
            func due() throws -> Due { .finished }
        }
        var endings = 0
        let held = HeldSource(Ended()) { endings += 1 }
        #expect(try held.due() == .idle)
        #expect(try held.due() == .idle)
        #expect(endings == 1)
        #expect(held.hasEnded)
    }
}
