import CMicroHTTPD
import Glibc
public import PlumometerSeams

/// The transport of `plumometer serve`: libmicrohttpd listening on one address, driven by the session's own loop
/// (its epoll descriptor is one more watch, `MHD_run` runs when it is ready or a timeout is due: one thread, so a
/// client never makes the device be read late). It parses nothing itself: each request's method, path, `Host`,
/// `Origin` and whether its peer is a loopback address go to the ``HTTPHandler``, whose answer it writes.
///
/// Event streams (`text/event-stream`) are responses whose body comes from a queue of their own: what is published
/// is appended to every queue, and a stream with nothing to send is suspended until something is. A queue is bounded
/// (``queueLimit``, ``stallLimit``): a client that stops reading is dropped once it has taken nothing for 2 s or its
/// queue is full, never buffered without bound.
/// A comment every ``keepAliveInterval`` microseconds keeps idle streams alive and finds clients that left (a
/// suspended connection does not notice on its own).
public final class HTTPServer: HTTPTransport {
    public private(set) var address: ListenAddress
    /// The most an event stream may hold unsent, in bytes, before its client is dropped (a burst of frames read in
    /// one turn of the loop must fit: at 1 kHz x 16 contacts a frame is 3.5 KB).
    public static let queueLimit = 1 << 20
    /// Microseconds an event stream may hold something unsent without taking any of it before its client is dropped.
    public static let stallLimit: Int64 = 2_000_000
    /// The kernel's send buffer of an event stream's socket (the kernel doubles it).
    static let socketBuffer: Int32 = 64 * 1024
    /// Microseconds between keep-alive comments on the event streams.
    public static let keepAliveInterval: Int64 = 5_000_000
    /// Seconds without progress after which a connection is closed (a slow header, a stalled client).
    static let connectionTimeout: UInt32 = 10
    static let connectionLimit: UInt32 = 1_000
    /// Memory per connection, which also bounds the request's headers (libmicrohttpd answers 431 beyond it).
    static let connectionMemory = 32 * 1024

    private let handler: any HTTPHandler
    private let loop: any EventLoop
    private var daemon: OpaquePointer?
    private var watchToken: Int?
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var nextKeepAlive: Int64
    /// Whether something was published since the last `MHD_run`.
    private var runDue = false

    /// Starts listening on `address` and watching in `loop`.
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on (in use, not this machine's, ...).
    public init(address: ListenAddress, handler: any HTTPHandler, loop: any EventLoop) throws(HTTPServerError) {
        self.handler = handler
        self.loop = loop
        nextKeepAlive = MonotonicClock.now().microseconds + Self.keepAliveInterval
        self.address = address
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let started = address.bytes.withUnsafeBufferPointer { bytes in
            plumometer_mhd_start(
                bytes.baseAddress,
                bytes.count,
                UInt16(address.port),
                accessHandler,
                context,
                nil,
                nil,
                logMessage,
                Self.connectionTimeout,
                Self.connectionLimit,
                Self.connectionMemory
            )
        }
        guard let started else { throw HTTPServerError(address: address, errno: errno) }
        daemon = started
        let port = Int(plumometer_mhd_port(started))
        if port != 0 { self.address = ListenAddress(bytes: address.bytes, port: port) }
        let descriptor = plumometer_mhd_epoll_fd(started)
        watchToken = loop.watch(descriptor) { [unowned self] in try self.service() }
    }

    deinit { stop() }

    public var streamCount: Int { streams.count }

    public func publish(_ text: String) {
        guard !streams.isEmpty else { return }
        let bytes = Array(text.utf8)
        let now = MonotonicClock.now().microseconds
        for stream in streams.values { stream.append(bytes, now: now) }
        // A resumed connection is taken up by the next `MHD_run`, which its epoll descriptor alone does not ask for.
        runDue = true
    }

    public func service() throws {
        guard let daemon else { return }
        let now = MonotonicClock.now().microseconds
        if now >= nextKeepAlive {
            nextKeepAlive = now + Self.keepAliveInterval
            publish(":\n\n")
        }
        runDue = false
        _ = MHD_run(daemon)
    }

    public func serviceDeadline() -> Int64? {
        guard let daemon else { return nil }
        if runDue { return 0 }
        let timeout = plumometer_mhd_timeout_ms(daemon)
        let connections: Int64? = timeout < 0 ? nil : Int64(timeout) * 1_000
        // Without an event stream nothing needs a keep-alive: an idle server sleeps until a client comes.
        guard !streams.isEmpty else { return connections }
        let keepAlive = Swift.max(0, nextKeepAlive - MonotonicClock.now().microseconds)
        return connections.map { Swift.min($0, keepAlive) } ?? keepAlive
    }

    /// Ends every event stream (its last chunk sent where the client still reads), then closes every connection and
    /// the listening socket. libmicrohttpd aborts when stopped with a suspended connection: each is resumed first.
    public func stop() {
        guard let daemon else { return }
        if let watchToken { loop.unwatch(watchToken) }
        watchToken = nil
        for stream in streams.values { stream.close() }
        // A few turns for the streams' last chunks; a client that does not take them is closed regardless.
        for _ in 0..<4 where !streams.isEmpty { _ = MHD_run(daemon) }
        for stream in streams.values { stream.resume() }
        _ = MHD_run(daemon)
        MHD_stop_daemon(daemon)
        self.daemon = nil
        streams.removeAll()
    }

    /// One call of libmicrohttpd's access handler. The first call of a request only says it is accepted; a body is
    /// read and dropped (no endpoint takes one), at most a few KiB; the last call answers.
    fileprivate func access(
        _ connection: OpaquePointer,
        url: String,
        method: String,
        uploadSize: UnsafeMutablePointer<Int>,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let seen = state.pointee else {
            state.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadSize.pointee > 0 {
            let total = Int(bitPattern: seen) + uploadSize.pointee
            uploadSize.pointee = 0
            // A body no endpoint reads, bounded: beyond it the connection is closed.
            guard total <= 4_096 else { return .NO }
            state.pointee = UnsafeMutableRawPointer(bitPattern: total)
            return .YES
        }
        let request = HTTPRequest(
            method: method,
            path: String(url.prefix { $0 != "?" }),
            host: plumometer_mhd_header(connection, "Host").map { String(cString: $0) },
            origin: plumometer_mhd_header(connection, "Origin").map { String(cString: $0) },
            peerIsLoopback: plumometer_mhd_peer_is_loopback(connection) != 0
        )
        switch handler.answer(request) {
        case .response(let response):
            var body = Array(response.body.utf8)
            let made = body.withUnsafeMutableBytes {
                plumometer_mhd_copied_response($0.count, $0.baseAddress)
            }
            guard let made else { return .NO }
            defer { MHD_destroy_response(made) }
            for header in response.headers { MHD_add_response_header(made, header.name, header.value) }
            return MHD_queue_response(connection, UInt32(response.status), made)
        case .events(let headers, let initial):
            let stream = EventStream(connection: connection, initial: Array(initial.utf8))
            let made = MHD_create_response_from_callback(
                plumometer_mhd_size_unknown,
                16 * 1024,
                readStream,
                Unmanaged.passRetained(stream).toOpaque(),
                freeStream
            )
            guard let made else { return .NO }
            defer { MHD_destroy_response(made) }
            for header in headers { MHD_add_response_header(made, header.name, header.value) }
            stream.server = self
            streams[ObjectIdentifier(stream)] = stream
            plumometer_mhd_limit_send_buffer(connection, Self.socketBuffer)
            return MHD_queue_response(connection, 200, made)
        }
    }

    fileprivate func remove(_ stream: EventStream) {
        streams[ObjectIdentifier(stream)] = nil
    }
}

/// An address that cannot be listened on.
public struct HTTPServerError: Error, CustomStringConvertible {
    public var address: ListenAddress
    public var errno: Int32

    public var description: String {
        let reason =
            switch errno {
            case EADDRINUSE: "the port is in use (another plumometer serve?); give another with --listen HOST:PORT"
            case EADDRNOTAVAIL: "the address is not one of this machine's; give one of its addresses or 127.0.0.1"
            case EACCES: "ports below 1024 need privileges; give a port of 1024 or more"
            case 0: "libmicrohttpd could not start"
            default: String(cString: strerror(errno))
            }
        return "cannot listen on \(address): \(reason)"
    }
}

/// One client of an event stream: its queue, and whether its connection is suspended for want of anything to send.
/// Used on the loop's thread only (libmicrohttpd runs inside `MHD_run` there).
final class EventStream {
    private let connection: OpaquePointer
    private var queue: [UInt8]
    private var head = 0
    private var suspended = false
    private var closing = false
    private var dropped = false
    /// When the oldest byte still queued was queued, or last taken (monotonic microseconds).
    private var waitingSince: Int64 = 0
    weak var server: HTTPServer?

    init(connection: OpaquePointer, initial: [UInt8]) {
        self.connection = connection
        queue = initial
    }

    /// Queues `bytes`, or drops the client when its queue would pass ``HTTPServer/queueLimit`` or it has taken
    /// nothing of it for ``HTTPServer/stallLimit`` (it stopped reading: what it holds is memory, and the device's
    /// frames go on).
    func append(_ bytes: [UInt8], now: Int64) {
        guard !dropped, !closing else { return }
        if queue.count == head { waitingSince = now }
        if queue.count - head + bytes.count > HTTPServer.queueLimit || now - waitingSince > HTTPServer.stallLimit {
            dropped = true
            queue = []
            head = 0
        } else {
            if head > 0 && head >= queue.count / 2 {
                queue.removeFirst(head)
                head = 0
            }
            queue += bytes
        }
        resume()
    }

    /// The end: what is queued is still sent, then the stream's last chunk.
    func close() {
        closing = true
        resume()
    }

    func resume() {
        guard suspended else { return }
        suspended = false
        MHD_resume_connection(connection)
    }

    /// libmicrohttpd's content reader: what is queued, else the end (closing, dropped), else a suspension.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if dropped { return plumometer_mhd_end_with_error }
        let available = queue.count - head
        if available > 0 {
            let count = Swift.min(available, max)
            queue.withUnsafeBufferPointer { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + head, byteCount: count)
            }
            head += count
            waitingSince = MonotonicClock.now().microseconds
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return count
        }
        if closing { return plumometer_mhd_end_of_stream }
        suspended = true
        MHD_suspend_connection(connection)
        return 0
    }
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context,
    connection,
    url,
    method,
    _,
    _,
    uploadSize,
    state in
    guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.access(
        connection,
        url: String(cString: url),
        method: String(cString: method),
        uploadSize: uploadSize,
        state: state
    )
}

private let readStream: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return plumometer_mhd_end_with_error }
    return Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

private let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue()
    stream.server?.remove(stream)
}

/// libmicrohttpd's messages: a client that went away is normal for a web page (a tab closed, a reload), not an error
/// worth a line, nor is a bad request that was answered (oversized headers: 431) or closed (a body); a failed bind is
/// said by ``HTTPServerError`` with what to do. Anything else is said on stderr.
private let logMessage: plumometer_mhd_log = { message in
    guard let message else { return }
    let text = String(cString: message).trimmingSuffix()
    let ordinary = [
        "reset by peer", "Broken pipe", "closed by remote", "Failed to send data", "Connection was closed",
        "disconnected", "timed out", "no longer available", "Socket has been disconnected", "Failed to receive data",
        "Failed to bind", "Error processing request", "Application reported internal error",
    ]
    guard !ordinary.contains(where: { text.contains($0) }) else { return }
    note("web server: " + text)
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == " " || last == "." { text = text.dropLast() }
        return String(text)
    }
}
