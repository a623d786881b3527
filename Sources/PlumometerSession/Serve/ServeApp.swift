public import PlumometerCore
public import PlumometerOutput

/// `plumometer serve`'s application: the reading output that keeps the device record and the latest frame (the JSON
/// Lines stream's objects, byte for byte: ``JSONLinesFormatter`` through a ``LineOutput``) and publishes them as
/// Server-Sent Events, and the handler that routes every request after the ``ServePolicy``'s refusals.
///
/// | request | answer |
/// |---|---|
/// | `GET /` (and its `/plumometer.css`, `/plumometer.js`) | the page |
/// | `GET /readings` | events: `device`, then one `frame` per frame (`removed` when the device goes) |
/// | `GET /api/state` | `{"device":...,"frame":...,"status":...}` |
/// | `POST /api/tare`, `/api/clear`, `/api/carrier` | the live view's `t`, `c`, `k`, answered with the new state |
///
/// Everything runs on the loop's thread: the transport hands each request over to it (its own thread only reads and
/// writes the connections), frames come from the pipeline.
public final class ServeApp: HTTPHandler, ReadingOutput {
    /// The transport, once it listens (the policy then knows the port chosen for `:0`). Weak: the transport holds
    /// this application as its handler, and whoever made both keeps the transport for the run.
    public weak var transport: (any HTTPTransport)? {
        didSet { if let transport { policy.address = transport.address } }
    }
    public private(set) var policy: ServePolicy
    /// The session whose pipeline tare, clear and carrier act on, once it is made. Weak: the session holds this
    /// application as its output.
    public weak var session: Session?
    private var lines: LineOutput!
    /// The device record and the latest frame as the stream writes them, without their line ends.
    public private(set) var deviceObject: String?
    public private(set) var frameObject: String?
    /// The last status the pipeline gave (tared, nothing to tare, ...).
    public private(set) var lastStatus: String?

    /// - Parameters:
    ///   - address: where the server listens (replaced by the transport's, with its port, once it listens).
    ///   - wallTimestamps: `--timestamps wall`, as the stream.
    public init(address: ListenAddress, wallTimestamps: Bool = false) {
        policy = ServePolicy(address: address)
        lines = LineOutput(formatter: JSONLinesFormatter(), sink: Sink(self), wallTimestamps: wallTimestamps)
    }

    // MARK: The reading output

    public func device(_ record: DeviceRecord) throws { try lines.device(record) }
    public func frame(_ reading: Reading, sequence: Int) throws { try lines.frame(reading, sequence: sequence) }
    public func removed(path: String, time: EventTime) throws { try lines.removed(path: path, time: time) }
    public func status(_ message: String) {
        lastStatus = message
        Diagnostics.note(message)
    }
    /// The transport's timed work (keep-alive comments, timeouts) happens in the session's idle turn, when it is due
    /// (its connections wake the loop through its own descriptor).
    public func idle(now: EventTime) throws {
        guard let transport, let due = transport.serviceDeadline(), due <= 0 else { return }
        try transport.service()
    }
    public func idleDeadline(now: EventTime) -> Int64? { transport?.serviceDeadline() }
    public func finish() throws {}

    /// A line of the stream: kept as the latest state and published as one event.
    fileprivate func received(_ line: String) {
        // Without its line end: `removeLast` looks at the last character only (`dropLast` counts every character of
        // the line first: a 3.5 KB frame of 16 contacts, a thousand times a second, on the reading thread).
        var object = line
        if object.utf8.last == UInt8(ascii: "\n") { object.removeLast() }
        let event: String
        if object.hasPrefix("{\"type\":\"frame\"") {
            frameObject = object
            event = "frame"
        } else if object.hasPrefix("{\"type\":\"device\"") {
            deviceObject = object
            frameObject = nil
            event = "device"
        } else if object.hasPrefix("{\"type\":\"removed\"") {
            deviceObject = nil
            frameObject = nil
            event = "removed"
        } else {
            return
        }
        transport?.publish(Self.event(event, object))
    }

    private final class Sink: LineSink {
        unowned let app: ServeApp
        init(_ app: ServeApp) { self.app = app }
        func write(_ text: String, droppable: Bool) throws { app.received(text) }
        func finish(timeout: Double) throws {}
    }

    // MARK: The handler

    /// The state: the device record and the latest frame (null until known), and the last status.
    public var stateJSON: String {
        "{\"device\":" + (deviceObject ?? "null") + ",\"frame\":" + (frameObject ?? "null") + ",\"status\":"
            + JSONText.optional(lastStatus) { JSONText.string($0) } + "}\n"
    }

    /// What a new event stream starts with: the device record and the latest frame.
    public var initialEvents: String {
        ": plumometer\n\n" + (deviceObject.map { Self.event("device", $0) } ?? "")
            + (frameObject.map { Self.event("frame", $0) } ?? "")
    }

    static func event(_ name: String, _ object: String) -> String {
        var event = "event: "
        event.reserveCapacity(name.utf8.count + object.utf8.count + 16)
        event += name
        event += "\ndata: "
        event += object
        event += "\n\n"
        return event
    }

    /// Headers on every answer: no caching, no sniffing, nothing but this server's own resources, no framing.
    static let commonHeaders = [
        HTTPHeader("Cache-Control", "no-store"),
        HTTPHeader("X-Content-Type-Options", "nosniff"),
        HTTPHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"),
        HTTPHeader("Referrer-Policy", "no-referrer"),
    ]

    static func response(_ status: Int, _ type: String, _ body: String, _ extra: [HTTPHeader] = []) -> HTTPAnswer {
        .response(
            HTTPResponse(
                status: status,
                headers: [HTTPHeader("Content-Type", type)] + extra + commonHeaders,
                body: body
            )
        )
    }

    static func text(_ status: Int, _ message: String, _ extra: [HTTPHeader] = []) -> HTTPAnswer {
        response(status, "text/plain; charset=utf-8", message + "\n", extra)
    }

    /// The methods each path answers.
    static let routes: [String: [String]] = [
        "/": ["GET", "HEAD"], "/plumometer.css": ["GET", "HEAD"], "/plumometer.js": ["GET", "HEAD"],
        "/readings": ["GET"], "/api/state": ["GET", "HEAD"],
        "/api/tare": ["POST"], "/api/clear": ["POST"], "/api/carrier": ["POST"],
    ]

    public func answer(_ request: HTTPRequest) -> HTTPAnswer {
        if let refusal = policy.hostRefusal(request) { return Self.text(refusal.status, refusal.reason) }
        guard let methods = Self.routes[request.path] else { return Self.text(404, "Not found: " + request.path) }
        guard methods.contains(request.method) else {
            return Self.text(
                405,
                request.path + " answers " + methods.joined(separator: ", ") + " only.",
                [HTTPHeader("Allow", methods.joined(separator: ", "))]
            )
        }
        if let refusal = policy.postRefusal(request) { return Self.text(refusal.status, refusal.reason) }
        switch request.path {
        case "/": return Self.response(200, "text/html; charset=utf-8", ServePage.html)
        case "/plumometer.css": return Self.response(200, "text/css; charset=utf-8", ServePage.css)
        case "/plumometer.js": return Self.response(200, "text/javascript; charset=utf-8", ServePage.script)
        case "/readings":
            return .events(
                headers: [HTTPHeader("Content-Type", "text/event-stream; charset=utf-8")] + Self.commonHeaders,
                initial: initialEvents
            )
        case "/api/state": return Self.response(200, "application/json", stateJSON)
        default: return act(on: String(request.path.dropFirst("/api/".count)))
        }
    }

    /// Tare, clear or carrier on the current pipeline, answered with the state after it.
    private func act(on action: String) -> HTTPAnswer {
        guard let pipeline = session?.pipeline, deviceObject != nil else {
            return Self.text(409, "No device is being read yet: nothing to " + action + ".")
        }
        do {
            switch action {
            case "tare": try pipeline.tare()
            case "clear": try pipeline.clearTare()
            default: try pipeline.tareCarrier()
            }
        } catch {
            return Self.text(500, String(describing: error))
        }
        return Self.response(200, "application/json", stateJSON)
    }
}
