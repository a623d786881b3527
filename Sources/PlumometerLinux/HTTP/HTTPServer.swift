import CMicroHTTPD
import CPOSIX
import Glibc
public import PlumometerSeams

/// The transport of `plumometer serve`: libmicrohttpd listening on one address, run on a thread of its own (a
/// ``ServerThread``: `MHD_run` when libmicrohttpd's epoll descriptor is ready), so that no client, however many or
/// however slow, makes the session's loop read the device late: the loop only hands over text and answers. (Not
/// libmicrohttpd's own thread: a thread a C library starts is one ThreadSanitizer never sees begin, and Swift code
/// run on it crashes an instrumented build.) It parses nothing itself: each request's method, path, `Host`,
/// `Origin` and whether its peer is a loopback address go to the ``HTTPHandler``, on the loop's thread (the request
/// waits, suspended, until the loop has answered it: an eventfd wakes the loop), and the server thread writes the
/// answer.
///
/// Event streams (`text/event-stream`) are responses whose body comes from a queue of their own: what is published
/// is appended to every queue (one copy of the text shared by all), and a stream with nothing to send is suspended
/// until something is. A queue is bounded (``queueLimit``, ``stallLimit``): a client that stops reading is dropped
/// once it has taken nothing for 2 s or its queue is full, never buffered without bound. A comment every
/// ``keepAliveInterval`` microseconds keeps idle streams alive and finds clients that left (a suspended connection
/// does not notice on its own).
///
/// The threads share the streams, the requests waiting for the loop and whether the server is stopping, under one
/// lock. A stream is suspended under it (the server thread, nothing to send) and marked for resuming under it
/// (the loop, text published), so each suspension is resumed exactly once, as libmicrohttpd requires (resuming a
/// connection that is not suspended is undefined). The resuming itself is a third thread's (``Resumer``): with a
/// hundred clients a frame resumes a hundred connections, each a wait for libmicrohttpd's own lock, and that is
/// not the reading thread's to wait for. Both threads run 10 steps nicer than the reading one, which a busy machine
/// then wakes first. Its times are `CLOCK_MONOTONIC`'s own (``Clock``), not the runtime's: they are deadlines for
/// real threads and condition variables, whatever clock a test gives the session.
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
    /// Microseconds ``stop()`` gives the event streams to send what they hold and their last chunk before every
    /// connection is closed (a stop must end within 100 ms).
    static let closingGrace: Int64 = 60_000
    /// The answer to a request that comes while the server stops.
    static let stoppingAnswer = HTTPAnswer.response(
        HTTPResponse(
            status: 503,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Connection", "close")],
            body: "plumometer is stopping.\n"
        )
    )

    private let handler: any HTTPHandler
    private let loop: any EventLoop
    private var daemon: OpaquePointer?
    /// Readable when a request waits for the loop's answer.
    private let requestsWaiting: Int32
    /// Wakes the ``ServerThread`` for connections resumed from other threads (libmicrohttpd's epoll descriptor does
    /// not become ready for them) and for its end.
    private let serverWake: Int32
    private var watchToken: Int?
    private var nextKeepAlive: Int64
    /// Guards what follows, shared with the server thread and the resumer; signalled when a stream or an answer at
    /// the stop ends.
    fileprivate let lock = ConditionLock()
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var waiting: [Exchange] = []
    private var stopping = false
    /// Requests answered 503 by ``stop()`` whose answer is still being written.
    private var answeringAtStop = 0
    private let resumer: Resumer
    private var thread: ServerThread?

    /// Starts listening on `address`, the server thread serving, and watches for requests in `loop`.
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on (in use, not this machine's, ...).
    public init(address: ListenAddress, handler: any HTTPHandler, loop: any EventLoop) throws(HTTPServerError) {
        self.handler = handler
        self.loop = loop
        nextKeepAlive = Clock.monotonicMicroseconds() + Self.keepAliveInterval
        self.address = address
        requestsWaiting = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        serverWake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        resumer = Resumer(lock: lock, wake: serverWake)
        // A failure from here on deinitialises what is made (deinit closes the eventfds).
        guard requestsWaiting >= 0, serverWake >= 0 else { throw HTTPServerError(address: address, errno: errno) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let started = address.bytes.withUnsafeBufferPointer { bytes in
            plumometer_mhd_start(
                bytes.baseAddress,
                bytes.count,
                UInt16(address.port),
                accessHandler,
                context,
                requestCompleted,
                context,
                logMessage,
                Self.connectionTimeout,
                Self.connectionLimit,
                Self.connectionMemory
            )
        }
        guard let started else { throw HTTPServerError(address: address, errno: errno) }
        daemon = started
        resumer.start()
        let thread = ServerThread(daemon: started, lock: lock, wake: serverWake)
        thread.start()
        self.thread = thread
        let port = Int(plumometer_mhd_port(started))
        if port != 0 { self.address = ListenAddress(bytes: address.bytes, port: port) }
        watchToken = loop.watch(requestsWaiting) { [unowned self] in self.answerWaiting() }
    }

    deinit {
        stop()
        if requestsWaiting >= 0 { close(requestsWaiting) }
        if serverWake >= 0 { close(serverWake) }
    }

    public var streamCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return streams.count
    }

    public func publish(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        // Without a client, a frame costs nothing more here (no copy of it for nobody).
        guard !streams.isEmpty, !text.isEmpty else { return }
        let bytes = Array(text.utf8)
        let now = Clock.monotonicMicroseconds()
        for stream in streams.values where stream.append(bytes, now: now) { resumer.add(stream.connection) }
    }

    /// The keep-alive comment, when due (libmicrohttpd's own timeouts run on the server thread).
    public func service() throws {
        let now = Clock.monotonicMicroseconds()
        guard now >= nextKeepAlive else { return }
        nextKeepAlive = now + Self.keepAliveInterval
        publish(":\n\n")
    }

    /// When the next keep-alive comment is due; nil without an event stream (an idle server sleeps until a client
    /// comes).
    public func serviceDeadline() -> Int64? {
        guard daemon != nil, streamCount > 0 else { return nil }
        return Swift.max(0, nextKeepAlive - Clock.monotonicMicroseconds())
    }

    /// Ends every event stream (what it holds and its last chunk sent where the client still reads, for at most
    /// ``closingGrace``), answers the requests still waiting with 503, then closes every connection and the
    /// listening socket. Nothing is suspended by then: libmicrohttpd aborts when stopped with a suspended connection.
    public func stop() {
        guard let daemon else { return }
        if let watchToken { loop.unwatch(watchToken) }
        watchToken = nil
        let deadline = Clock.monotonicMicroseconds() + Self.closingGrace
        lock.lock()
        stopping = true
        for exchange in waiting {
            exchange.answer = Self.stoppingAnswer
            exchange.answeredAtStop = true
            answeringAtStop += 1
            MHD_resume_connection(exchange.connection)
        }
        if !waiting.isEmpty { notify(serverWake) }
        waiting.removeAll()
        for stream in streams.values where stream.close() { resumer.add(stream.connection) }
        while !streams.isEmpty || answeringAtStop > 0 {
            guard lock.wait(untilMonotonicMicroseconds: deadline) else { break }
        }
        lock.unlock()
        resumer.end()
        thread?.end()
        thread = nil
        MHD_stop_daemon(daemon)
        self.daemon = nil
        lock.lock()
        streams.removeAll()
        lock.unlock()
    }

    /// The loop's turn: answers every request waiting (the handler runs here, on the loop's thread), registers the
    /// event streams (before any later text is published, so a new client misses no frame after its first state)
    /// and resumes their connections.
    private func answerWaiting() {
        drain(requestsWaiting)
        lock.lock()
        let taken = waiting
        waiting.removeAll()
        lock.unlock()
        for exchange in taken {
            guard let request = exchange.request else { continue }
            let answer = handler.answer(request)
            lock.lock()
            if stopping {
                exchange.answer = Self.stoppingAnswer
            } else {
                if case .events(_, let initial) = answer {
                    let stream = EventStream(connection: exchange.connection, initial: Array(initial.utf8), lock: lock)
                    streams[ObjectIdentifier(stream)] = stream
                    exchange.stream = stream
                }
                exchange.answer = answer
            }
            MHD_resume_connection(exchange.connection)
            lock.unlock()
        }
        if !taken.isEmpty { notify(serverWake) }
    }

    /// One call of libmicrohttpd's access handler, on the server thread. The first call of a request only says it is
    /// accepted; a body is read and dropped (no endpoint takes one), at most a few KiB; the last call hands the
    /// request to the loop and suspends it, and once the loop has answered (the connection resumed) it is called
    /// again and queues the answer.
    fileprivate func access(
        _ connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        uploadSize: UnsafeMutablePointer<Int>,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = state.pointee else {
            state.pointee = Unmanaged.passRetained(Exchange(connection: connection)).toOpaque()
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            exchange.bodySize += uploadSize.pointee
            uploadSize.pointee = 0
            // A body no endpoint reads, bounded: beyond it the connection is closed.
            return exchange.bodySize <= 4_096 ? .YES : .NO
        }
        let request =
            exchange.request
            ?? HTTPRequest(
                method: String(cString: method),
                path: String(String(cString: url).prefix { $0 != "?" }),
                host: plumometer_mhd_header(connection, "Host").map { String(cString: $0) },
                origin: plumometer_mhd_header(connection, "Origin").map { String(cString: $0) },
                peerIsLoopback: plumometer_mhd_peer_is_loopback(connection) != 0
            )
        lock.lock()
        if exchange.answer == nil && stopping { exchange.answer = Self.stoppingAnswer }
        guard let answer = exchange.answer else {
            exchange.request = request
            waiting.append(exchange)
            MHD_suspend_connection(connection)
            lock.unlock()
            notify(requestsWaiting)
            return .YES
        }
        let stream = exchange.stream
        lock.unlock()
        switch answer {
        case .response(let response):
            var body = Array(response.body.utf8)
            let made = body.withUnsafeMutableBytes {
                plumometer_mhd_copied_response($0.count, $0.baseAddress)
            }
            guard let made else { return .NO }
            defer { MHD_destroy_response(made) }
            for header in response.headers { MHD_add_response_header(made, header.name, header.value) }
            return MHD_queue_response(connection, UInt32(response.status), made)
        case .events(let headers, _):
            guard let stream else { return .NO }
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
            plumometer_mhd_limit_send_buffer(connection, Self.socketBuffer)
            return MHD_queue_response(connection, 200, made)
        }
    }

    /// A request ended (answered, its client gone, or the server stopping), on either thread: its event stream, if
    /// any, is no longer published to, and a stop waiting for its answer is told.
    fileprivate func completed(_ exchange: Exchange) {
        lock.lock()
        if let stream = exchange.stream { streams[ObjectIdentifier(stream)] = nil }
        if exchange.answeredAtStop { answeringAtStop -= 1 }
        lock.broadcast()
        lock.unlock()
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
    return server.access(connection, url: url, method: method, uploadSize: uploadSize, state: state)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, state, _ in
    guard let context, let state, let pointer = state.pointee else { return }
    state.pointee = nil
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().completed(exchange)
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
