// The seam between `plumometer serve`'s application (pure Swift: routing, the Host/Origin/loopback policy, the JSON,
// the page) and the bridge's HTTP transport (PlumometerLinux/HTTP: libmicrohttpd, which listens, parses and writes).
// The transport parses nothing of its own: it hands each request's method, path, Host, Origin and whether its peer
// is a loopback address to an ``HTTPHandler`` and writes what it answers; event streams (Server-Sent Events) get the
// text the application publishes, each client through a bounded queue of its own.

/// One request, as the transport read it.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path of the request target, without its query.
    public var path: String
    /// The `Host` header, if any.
    public var host: String?
    /// The `Origin` header, if any.
    public var origin: String?
    /// Whether the peer's address is a loopback one (127.0.0.0/8, ::1).
    public var peerIsLoopback: Bool

    public init(method: String, path: String, host: String?, origin: String?, peerIsLoopback: Bool) {
        self.method = method
        self.path = path
        self.host = host
        self.origin = origin
        self.peerIsLoopback = peerIsLoopback
    }
}

/// A whole answer: status, headers (in order) and body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: String

    public init(status: Int, headers: [HTTPHeader], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitively), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// One header line.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What the application answers: a whole response, or an event stream (status 200 with `headers`) that starts with
/// `initial` and then carries everything published to the streams until the client or the server goes.
public enum HTTPAnswer: Sendable, Equatable {
    case response(HTTPResponse)
    case events(headers: [HTTPHeader], initial: String)
}

/// The application's side: called on the loop's thread, one request at a time.
public protocol HTTPHandler: AnyObject {
    func answer(_ request: HTTPRequest) -> HTTPAnswer
}

/// The transport's side, as the application sees it: driven on the loop's thread.
public protocol HTTPTransport: AnyObject {
    /// The address it listens on (the port chosen when 0 was asked).
    var address: ListenAddress { get }
    /// Queues `text` (whole events) to every open event stream. A client whose queue is full is dropped.
    func publish(_ text: String)
    /// How many event streams are open.
    var streamCount: Int { get }
    /// Does what is due (timeouts, keep-alive comments that find clients gone).
    func service() throws
    /// Microseconds until ``service()`` is next due, or nil.
    func serviceDeadline() -> Int64?
    /// Ends every stream cleanly and closes the listening socket.
    func stop()
}

/// `--listen HOST:PORT`: an IPv4 literal, a bracketed IPv6 literal or `localhost`, and a port (0: any free one).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host as written in URLs: `127.0.0.1`, `[::1]`.
    public var host: String
    /// The address in network order: 4 bytes (IPv4) or 16 (IPv6).
    public var bytes: [UInt8]
    public var port: Int

    public init(bytes: [UInt8], port: Int) {
        self.bytes = bytes
        self.port = port
        host = bytes.count == 4 ? bytes.map { String($0) }.joined(separator: ".") : "[" + Self.ipv6Text(bytes) + "]"
    }

    /// `127.0.0.1:8390`, the default.
    public static let standard = ListenAddress(bytes: [127, 0, 0, 1], port: 8390)

    /// Whether only this machine can reach it: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// `http://127.0.0.1:8390/`.
    public var url: String { "http://" + host + ":" + String(port) + "/" }

    public var description: String { host + ":" + String(port) }

    /// Reads `HOST:PORT`; nil when it is not one (the message says what is).
    public static func parse(_ text: String) -> ListenAddress? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = Substring(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        if host == "localhost" { return ListenAddress(bytes: [127, 0, 0, 1], port: port) }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
            guard let bytes = ipv6(host) else { return nil }
            return ListenAddress(bytes: bytes, port: port)
        }
        guard let bytes = ipv4(host) else { return nil }
        return ListenAddress(bytes: bytes, port: port)
    }

    /// Dotted-quad IPv4, each part 0...255 in decimal.
    public static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// RFC 4291 text: eight groups of hex, one `::` for a run of zeros, an IPv4 tail allowed.
    public static func ipv6(_ text: Substring) -> [UInt8]? {
        var groups: [[UInt16]] = [[], []]
        var side = 0
        var rest = text
        if rest.hasPrefix("::") {
            side = 1
            rest = rest.dropFirst(2)
        }
        var tail: [UInt8] = []
        while !rest.isEmpty {
            let end = rest.firstIndex(of: ":") ?? rest.endIndex
            let group = rest[..<end]
            if group.contains("."), end == rest.endIndex, let v4 = ipv4(group) {
                tail = v4
            } else {
                guard !group.isEmpty, group.count <= 4, let value = UInt16(group, radix: 16) else { return nil }
                groups[side].append(value)
            }
            rest = rest[end...]
            if rest.hasPrefix("::") {
                guard side == 0 else { return nil }
                side = 1
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix(":") {
                rest = rest.dropFirst()
                if rest.isEmpty { return nil }
            }
        }
        let count = groups[0].count + groups[1].count + tail.count / 2
        guard side == 1 ? count <= 7 : count == 8 else { return nil }
        let zeros = [UInt16](repeating: 0, count: 8 - count)
        var bytes: [UInt8] = []
        for value in groups[0] + zeros + groups[1] { bytes += [UInt8(value >> 8), UInt8(value & 0xff)] }
        return bytes + tail
    }

    /// The shortest text of 16 bytes (RFC 5952): lower-case hex, the longest run of zero groups as `::`.
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8 && groups[end] == 0 { end += 1 }
            if end - index > best.length && end - index > 1 { best = (index, end - index) }
            index = end
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.start >= 0 else { return hex.joined(separator: ":") }
        return hex[..<best.start].joined(separator: ":") + "::"
            + hex[(best.start + best.length)...].joined(separator: ":")
    }
}
