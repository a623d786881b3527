import Foundation
import Glibc
import PlumometerLinux
import PlumometerSeams
import PlumometerTestSupport
import Testing

/// `serve`'s transport in-process, on the bridge's real loop: the server thread (libmicrohttpd) reads and writes
/// the connections, the loop's thread answers every request (the handler never runs anywhere else), a request still
/// waiting for the loop when the server stops is answered 503, and every event stream gets every published event in
/// order and, at the stop, its end.
@Suite(.serialized)
struct HTTPServerTests {
    /// Answers `/readings` with an event stream and anything else with a line naming the path; notes the thread of
    /// each call.
    final class Handler: HTTPHandler {
        private(set) var threads: [pthread_t] = []
        private(set) var paths: [String] = []

        func answer(_ request: HTTPRequest) -> HTTPAnswer {
            threads.append(pthread_self())
            paths.append(request.path)
            if request.path == "/readings" {
                return .events(headers: [HTTPHeader("Content-Type", "text/event-stream")], initial: "start\n")
            }
            return .response(
                HTTPResponse(
                    status: 200,
                    headers: [HTTPHeader("Content-Type", "text/plain")],
                    body: "answer to " + request.path + "\n"
                )
            )
        }
    }

    /// The bridge's loop, with the descriptors watched in it in view (to see a request waiting without running it).
    final class WatchedLoop: EventLoop {
        let driver: Driver
        private(set) var descriptors: [Int32] = []

        init() throws { driver = try Driver() }

        func watch(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int {
            descriptors.append(descriptor)
            return driver.watch(descriptor, handler)
        }
        func watchInput(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int {
            driver.watchInput(descriptor, handler)
        }
        func unwatch(_ token: Int) { driver.unwatch(token) }
        func finish() { driver.finish() }
        func stopWhenOutputCloses() { driver.stopWhenOutputCloses() }
        func run(_ work: @escaping () throws -> Due) throws { try driver.run(work) }
        var stoppedBySignal: Bool { driver.stoppedBySignal }
        var onResize: () -> Void {
            get { driver.onResize }
            set { driver.onResize = newValue }
        }
        var onHangup: () throws -> Void {
            get { driver.onHangup }
            set { driver.onHangup = newValue }
        }
        var atEnd: () -> (() throws -> Due)? {
            get { driver.atEnd }
            set { driver.atEnd = newValue }
        }
        func handleJobControl(suspend: @escaping () -> Void, resume: @escaping () throws -> Void) throws {
            try driver.handleJobControl(suspend: suspend, resume: resume)
        }
    }

    /// What client threads hand back.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [Int: String] = [:]
        func put(_ index: Int, _ text: String) {
            lock.lock()
            answers[index] = text
            lock.unlock()
        }
        var all: [Int: String] {
            lock.lock()
            defer { lock.unlock() }
            return answers
        }
    }

    static let anyPort = ListenAddress(bytes: [127, 0, 0, 1], port: 0)

    @Test func everyRequestIsAnsweredOnTheLoopsThread() throws {
        let handler = Handler()
        let loop = try WatchedLoop()
        let server = try HTTPServer(address: Self.anyPort, handler: handler, loop: loop)
        defer { server.stop() }
        let port = server.address.port
        #expect(port != 0, "port 0 is any free port, and the server says which")
        let collected = Collected()
        for index in 0..<4 {
            BackgroundThread.start {
                let answer = Result {
                    let client = try Socket(port: port)
                    try client.send("GET /path\(index)?query HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                    return try client.receiveAll(timeout: 20)
                }
                collected.put(index, (try? answer.get()) ?? "failed: \(answer)")
            }
        }
        let deadline = Date().addingTimeInterval(30)
        try loop.run { collected.all.count == 4 || Date() > deadline ? .finished : .within(5_000) }
        for index in 0..<4 {
            let answer = collected.all[index] ?? ""
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer)")
            #expect(answer.hasSuffix("\r\n\r\nanswer to /path\(index)\n"), "\(answer)")
        }
        #expect(handler.paths.sorted() == ["/path0", "/path1", "/path2", "/path3"], "each asked once, no query")
        let loopThread = pthread_self()
        #expect(handler.threads.count == 4)
        #expect(handler.threads.allSatisfy { pthread_equal($0, loopThread) != 0 })
    }

    @Test func aRequestStillWaitingForTheLoopWhenTheServerStopsIsAnswered503() throws {
        let handler = Handler()
        let loop = try WatchedLoop()
        let server = try HTTPServer(address: Self.anyPort, handler: handler, loop: loop)
        let client = try Socket(port: server.address.port)
        try client.send("GET /never HTTP/1.1\r\nHost: 127.0.0.1:\(server.address.port)\r\n\r\n")
        // The loop is not run: the request waits for it, and says so on the descriptor the loop would watch.
        let descriptor = try #require(loop.descriptors.first)
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1, "the request is handed to the loop")
        let started = Date()
        server.stop()
        // It waits for its 503 to be written (60 ms at most), not for the loop. (Its 100 ms bound is the whole
        // binary's, ServeCommandTests'; an AddressSanitizer build on a loaded machine took 112 ms here.)
        #expect(Date().timeIntervalSince(started) < 1, "a stop does not wait for a loop that does not run")
        let answer = try client.receiveAll(timeout: 10)
        #expect(answer.hasPrefix("HTTP/1.1 503 "), "\(answer)")
        #expect(answer.hasSuffix("plumometer is stopping.\n"), "\(answer)")
        #expect(handler.paths.isEmpty, "the handler is the loop's, and the loop never ran")
    }

    @Test func everyStreamGetsEveryEventInOrderThenItsEndAtTheStop() throws {
        let handler = Handler()
        let loop = try WatchedLoop()
        let server = try HTTPServer(address: Self.anyPort, handler: handler, loop: loop)
        let port = server.address.port
        // Three HTTP/1.0 clients (the body ends with the connection) and one HTTP/1.1 (chunked: a last chunk).
        let versions = ["1.0", "1.0", "1.0", "1.1"]
        let clients = try versions.map { version in
            let client = try Socket(port: port)
            try client.send("GET /readings HTTP/\(version)\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            return client
        }
        let collected = Collected()
        let ends = Collected()
        // A thread each (a queue's few workers would leave some clients unread, and dropped, for a while): up to
        // the last event, said at once, then to the connection's end.
        for (index, client) in clients.enumerated() {
            BackgroundThread.start {
                let upToTheEnd = (try? client.receiveAll(timeout: 30, until: "data: the end\n\n")) ?? "failed"
                ends.put(index, "")
                collected.put(index, upToTheEnd + ((try? client.receiveAll(timeout: 30)) ?? "failed"))
            }
        }
        // Events of 20 bytes to 1.8 KB (a frame of 16 contacts is 3.5 KB), 10 per turn of the loop: under 1 MiB in
        // all, so that no client is dropped however late a loaded machine runs its thread.
        let events =
            (0..<1_000).map { index in
                "event: n\ndata: \(index) " + String(repeating: "x", count: index * 7 % 1_800) + "\n\n"
            } + ["event: end\ndata: the end\n\n"]
        var published = 0
        var connected = false
        let deadline = Date().addingTimeInterval(30)
        try loop.run {
            guard Date() < deadline else { return .finished }
            connected = connected || server.streamCount == clients.count
            guard connected else { return .within(1_000) }
            if published < events.count {
                for event in events[published..<min(published + 10, events.count)] { server.publish(event) }
                published = min(published + 10, events.count)
                return .within(1_000)
            }
            // Once every client has the last event, the stop: each stream's end is all that is left to send.
            guard ends.all.count == clients.count else { return .within(1_000) }
            server.stop()
            return .finished
        }
        #expect(published == events.count)
        let answersDeadline = Date().addingTimeInterval(30)
        while collected.all.count < clients.count && Date() < answersDeadline { usleep(10_000) }
        let whole = "start\n" + events.joined()
        for (index, version) in versions.enumerated() {
            let answer = collected.all[index] ?? ""
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "client \(index): \(answer.prefix(200))")
            let body = String(answer[(answer.range(of: "\r\n\r\n")?.upperBound ?? answer.endIndex)...])
            if version == "1.0" {
                #expect(body == whole, "client \(index) got \(body.utf8.count) of \(whole.utf8.count) bytes")
            } else {
                #expect(
                    body.hasSuffix("\r\n0\r\n\r\n"),
                    "the last chunk, then nothing: \(body.utf8.count) bytes ending \(body.suffix(40).debugDescription)"
                )
                #expect(Self.unchunked(body) == whole, "the chunked client got every event in order")
            }
            #expect(clients[index].closed, "client \(index): the server ended the connection")
        }
    }

    @Test func itsThreadsYieldACoreToTheReadingOne() throws {
        let before = try Self.niceValues()
        let server = try HTTPServer(address: Self.anyPort, handler: Handler(), loop: try WatchedLoop())
        defer { server.stop() }
        // The server thread and the resumer: 10 steps nicer than the thread that made them, which stays as it was.
        let deadline = Date().addingTimeInterval(10)
        var added: [Int32] = []
        while Date() < deadline {
            let now = try Self.niceValues()
            added = now.filter { before[$0.key] == nil }.map(\.value).sorted()
            if added.count >= 2 && added.allSatisfy({ $0 != 0 }) { break }
            usleep(10_000)
        }
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(added.filter { $0 == Swift.min(19, own + 10) }.count == 2, "nice values of the new threads: \(added)")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own)
    }

    /// Each thread of this process and its nice value (/proc/self/task/TID/stat, the 19th field).
    static func niceValues() throws -> [String: Int32] {
        var values: [String: Int32] = [:]
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let end = stat.range(of: ") ", options: .backwards)
            else { continue }
            // After the command's closing parenthesis: state is field 3, nice field 19.
            let fields = stat[end.upperBound...].split(separator: " ")
            if fields.count > 16, let nice = Int32(fields[16]) { values[task] = nice }
        }
        return values
    }

    /// The data of an HTTP/1.1 chunked body (`SIZE\r\nDATA\r\n`... `0\r\n\r\n`), nil when it is not one.
    static func unchunked(_ body: String) -> String? {
        var rest = Substring(body).utf8[...]
        var data: [UInt8] = []
        while let line = rest.firstIndex(of: UInt8(ascii: "\r")) {
            guard let size = Int(String(decoding: rest[..<line], as: UTF8.self), radix: 16) else { return nil }
            rest = rest[rest.index(line, offsetBy: 2)...]
            if size == 0 { return String(decoding: data, as: UTF8.self) }
            guard rest.count >= size + 2 else { return nil }
            data += rest.prefix(size)
            rest = rest.dropFirst(size + 2)
        }
        return nil
    }
}
