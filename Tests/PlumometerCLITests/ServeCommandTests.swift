import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `plumometer serve --replay` of the demo on `127.0.0.1:0`, through real sockets: the state and the events carry
/// the stream's objects byte for byte, every refusal (unknown path, wrong method, another Host, a POST without the
/// page's Origin), tare from the page's origin, a client that never reads dropped, and SIGINT ending everything
/// within 100 ms with exit status 0.
@Suite(.serialized)
struct ServeCommandTests {
    /// The demo recording in a scratch directory.
    static func demo() throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("demo.evemu").path
        let saved = try CLI.run(["demo", "--save", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        return path
    }

    @Test func stateAndEventsCarryTheStreamsObjectsByteForByte() throws {
        let path = try Self.demo()
        let stream = try CLI.run(["replay", "--fast", "-f", "jsonl", path])
        #expect(stream.status == 0)
        let lines = stream.stdoutLines
        let server = try Served(["--replay", path])
        defer { server.stop() }
        let events = try server.events(frames: 5)
        #expect(events.filter { $0.name == "frame" }.count >= 5, "frames are published as they come")
        #expect(events.first?.name == "device")
        #expect(events.first?.data == lines.first, "the device event is the stream's device record")
        let frames = Set(lines.dropFirst())
        for event in events.dropFirst() {
            #expect(event.name == "frame")
            #expect(frames.contains(event.data), "not a frame of the stream: \(event.data)")
        }
        let state = try server.request("GET", "/api/state")
        #expect(state.status == 200)
        #expect(state.header("Content-Type") == "application/json")
        #expect(state.body.hasPrefix("{\"device\":" + (lines.first ?? "") + ",\"frame\":"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any])
        #expect(object["device"] is [String: Any])
    }

    @Test func everyRefusalIsAnsweredAndChangesNothing() throws {
        let server = try Served(["--replay", try Self.demo()])
        defer { server.stop() }
        let page = try server.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.body.contains("<script src=\"/plumometer.js\""))
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(try server.request("GET", "/plumometer.js").status == 200)
        #expect(try server.request("GET", "/nothing-here").status == 404)
        let wrongMethod = try server.request("POST", "/api/state", origin: server.origin)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
        #expect(try server.request("GET", "/api/tare").status == 405)
        // DNS rebinding: a page of evil.example whose name resolves here sends its own name.
        #expect(try server.request("GET", "/api/state", host: "evil.example:\(server.port)").status == 421)
        #expect(try server.request("GET", "/", host: "127.0.0.1:1").status == 421)
        #expect(try server.request("GET", "/api/state", host: "localhost:\(server.port)").status == 200)
        // Cross-site tare, and a POST that names no origin at all.
        #expect(try server.request("POST", "/api/tare", origin: "http://evil.example").status == 403)
        #expect(try server.request("POST", "/api/tare").status == 403)
        #expect(try server.request("POST", "/api/clear", origin: "null").status == 403)
        // Headers beyond the connection's memory: answered by libmicrohttpd; a body no endpoint takes: closed.
        let big = try Socket(port: server.port)
        try big.send(
            "GET /api/state HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n"
        )
        #expect(try big.receiveAll(timeout: 5).hasPrefix("HTTP/1.1 431 "))
        let body = try Socket(port: server.port)
        try body.send(
            "POST /api/tare HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(server.origin)\r\n"
                + "Content-Length: 100000\r\n\r\n" + String(repeating: "x", count: 100_000)
        )
        #expect(try body.receiveAll(timeout: 5).isEmpty)
        #expect(body.closed)
        let state = try server.request("GET", "/api/state")
        #expect(state.body.hasSuffix(",\"status\":null}\n"), "a refused POST tared nothing: \(state.body.suffix(60))")
        // Answered or closed, not logged as the server's errors.
        server.stop()
        #expect(!server.stderr.contains("web server:"), "\(server.stderr)")
    }

    @Test func tareFromThePagesOriginGivesTaredValues() throws {
        let server = try Served(["--replay", try Self.demo()])
        defer { server.stop() }
        // The demo's first plum is down from about 1.4 s on.
        let deadline = Date().addingTimeInterval(20)
        var contacts: [[String: Any]] = []
        while contacts.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let state = try JSONSerialization.jsonObject(with: Data(try server.request("GET", "/api/state").body.utf8))
            let frame = (state as? [String: Any])?["frame"] as? [String: Any]
            contacts = frame?.objects("contacts") ?? []
        }
        #expect(!contacts.isEmpty, "a plum is down")
        let tared = try server.request("POST", "/api/tare", origin: server.origin)
        #expect(tared.status == 200)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(tared.body.utf8)) as? [String: Any])
        #expect(state.string("status") == "tared")
        let frame = try #require(state["frame"] as? [String: Any])
        for contact in frame.objects("contacts") {
            #expect(contact.number("grams") == 0, "tared: \(contact)")
        }
        let cleared = try server.request("POST", "/api/clear", origin: server.origin)
        #expect(cleared.status == 200)
        #expect(cleared.body.contains("\"status\":\"tare cleared\""))
    }

    @Test func sigintClosesEveryClientAndExitsWithinATenthOfASecond() throws {
        let server = try Served(["--replay", try Self.demo()])
        let client = try Socket(port: server.port)
        try client.send("GET /readings HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        _ = try client.receive(until: "event: device")
        let elapsed = server.interrupt()
        #expect(server.process.terminationStatus == 0)
        #expect(elapsed < 0.1, "stopped in \(elapsed) s")
        // Cleanly: the chunked stream's last chunk, then the end of the connection.
        let rest = try client.receiveAll(timeout: 2)
        #expect(rest.hasSuffix("0\r\n\r\n"), "the stream's last chunk: \(rest.suffix(40).debugDescription)")
        #expect(server.stderr.contains("plumometer: stopped"))
    }

    @Test func theLastStateStaysServedAfterTheRecordingEndsUntilSIGTERM() throws {
        let path = try Self.demo()
        let last = try #require(try CLI.run(["replay", "--fast", "-f", "jsonl", path]).stdoutLines.last)
        let server = try Served(["--replay", path, "--fast"])
        let deadline = Date().addingTimeInterval(20)
        var state = ""
        while !state.contains(",\"frame\":" + last + ",") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            state = try server.request("GET", "/api/state").body
        }
        #expect(state.contains(",\"frame\":" + last + ","), "the recording's last frame: \(state)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.process.isRunning, "still serving after the recording's end")
        #expect(try server.request("GET", "/api/state").body == state)
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
    }

    @Test(.tags(.slow)) func aHeaderThatNeverEndsIsClosedAndOthersAreServedMeanwhile() throws {
        let server = try Served(["--replay", try Self.demo()])
        defer { server.stop() }
        // Slowloris: a request whose headers never end holds a connection until the 10 s timeout, no longer.
        let slow = try Socket(port: server.port)
        try slow.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: 1\r\n")
        let started = Date()
        #expect(try server.request("GET", "/api/state").status == 200, "served meanwhile")
        let answer = try slow.receiveAll(timeout: 20)
        let waited = Date().timeIntervalSince(started)
        #expect(answer.isEmpty && slow.closed, "closed without an answer: \(answer.prefix(80))")
        #expect(waited > 8 && waited < 15, "closed after \(waited) s")
    }

    @Test(.tags(.slow)) func aClientThatNeverReadsIsDropped() throws {
        // Four times as fast: the demo's 390 KB of events in under four seconds.
        let server = try Served(["--replay", try Self.demo(), "--speed", "4"])
        defer { server.stop() }
        let stalled = try Socket(port: server.port, receiveBuffer: 2048)
        try stalled.send("GET /readings HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        // A reader that keeps reading gets everything meanwhile.
        let reader = try Socket(port: server.port)
        try reader.send("GET /readings HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        let read = try reader.receiveAll(timeout: 20, until: "\"seq\":607,")
        #expect(read.contains("\"seq\":607,"), "the reader got the last frame")
        let kept = try stalled.receiveAll(timeout: 3)
        #expect(kept.utf8.count < read.utf8.count / 2, "the stalled client was dropped: \(kept.utf8.count) bytes")
        #expect(stalled.closed, "the server closed the stalled client")
        #expect(!read.isEmpty && !reader.closed, "the reader is still served")
    }
}

/// A running `plumometer serve --listen 127.0.0.1:0 ARGS`, its port read from stderr.
final class Served {
    let process = Process()
    private let errors = Pipe()
    private(set) var stderr = ""
    let port: Int

    var origin: String { "http://127.0.0.1:\(port)" }

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try CLI.binary)
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = try CLI.temporaryDirectory().path
        environment["PLUMOMETER_WALL_CLOCK"] = "1767225600"
        process.environment = environment
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = errors.fileHandleForReading
        while !text.contains("/\n") {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        stderr = text
        guard let range = text.range(of: "serving http://127.0.0.1:"),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw ServeTestError.noURL(text)
        }
        self.port = port
    }

    /// SIGINT, then the seconds until the process ended.
    func interrupt() -> Double {
        let start = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(start)
        stderr += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return elapsed
    }

    func stop() {
        guard process.isRunning else { return }
        _ = interrupt()
    }

    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: String
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// One HTTP/1.0 request (the connection closes after the answer).
    func request(_ method: String, _ path: String, host: String? = nil, origin: String? = nil) throws -> Answer {
        let socket = try Socket(port: port)
        var text = method + " " + path + " HTTP/1.0\r\nHost: " + (host ?? "127.0.0.1:\(port)") + "\r\n"
        if let origin { text += "Origin: " + origin + "\r\n" }
        try socket.send(text + "Content-Length: 0\r\n\r\n")
        let answer = try socket.receiveAll(timeout: 5)
        guard let end = answer.range(of: "\r\n\r\n") else { throw ServeTestError.malformed(answer) }
        let head = answer[..<end.lowerBound].components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(status: status, headers: headers, body: String(answer[end.upperBound...]))
    }

    /// The events of `/readings` until `frames` frames have come.
    func events(frames: Int) throws -> [(name: String, data: String)] {
        let socket = try Socket(port: port)
        try socket.send("GET /readings HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        var text = ""
        var events: [(name: String, data: String)] = []
        let deadline = Date().addingTimeInterval(20)
        while events.filter({ $0.name == "frame" }).count < frames && Date() < deadline {
            text += try socket.receive(until: "\n\n")
            while let end = text.range(of: "\n\n") {
                let block = text[..<end.lowerBound]
                text = String(text[end.upperBound...])
                var name = "message"
                var data: String?
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                if let data { events.append((name, data)) }
            }
            if let head = text.range(of: "\r\n\r\n") { text = String(text[head.upperBound...]) }
        }
        return events
    }
}

enum ServeTestError: Error {
    case noURL(String)
    case malformed(String)
}
