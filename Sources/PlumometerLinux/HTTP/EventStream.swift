import CMicroHTTPD
import Glibc
import PlumometerSeams

/// One request between the server thread, which reads it and writes its answer, and the loop, which answers
/// it. Its fields other than `connection` and `bodySize` are the server's lock's.
final class Exchange {
    let connection: OpaquePointer
    /// Bytes of a body received (and dropped).
    var bodySize = 0
    var request: HTTPRequest?
    var answer: HTTPAnswer?
    /// The event stream registered for it by the loop, when the answer is one.
    var stream: EventStream?
    /// Whether ``HTTPServer/stop()`` answered it (and waits for the answer to be written).
    var answeredAtStop = false

    init(connection: OpaquePointer) { self.connection = connection }
}

/// One client of an event stream: its queue, and whether its connection is suspended for want of anything to send.
/// Its state is the server's lock's: appended to on the loop's thread, read on the server thread.
final class EventStream {
    let connection: OpaquePointer
    private let lock: ConditionLock
    /// What is queued: whole events, each shared by every stream (a frame is copied once, not once per client), from
    /// `first`, of which `sent` bytes are sent; `queued` bytes in all.
    private var chunks: [[UInt8]]
    private var first = 0
    private var sent = 0
    private var queued: Int
    private var suspended = false
    private var closing = false
    private var dropped = false
    /// When the oldest byte still queued was queued, or last taken (monotonic microseconds).
    private var waitingSince: Int64

    init(connection: OpaquePointer, initial: [UInt8], lock: ConditionLock) {
        self.connection = connection
        self.lock = lock
        chunks = initial.isEmpty ? [] : [initial]
        queued = initial.count
        waitingSince = Clock.monotonicMicroseconds()
    }

    /// Queues `bytes`, or drops the client when its queue would pass ``HTTPServer/queueLimit`` or it has taken
    /// nothing of it for ``HTTPServer/stallLimit`` (it stopped reading: what it holds is memory, and the device's
    /// frames go on). The lock held.
    /// - Returns: whether its connection is to be resumed (it was suspended: it now has something to send or to end).
    func append(_ bytes: [UInt8], now: Int64) -> Bool {
        guard !dropped, !closing else { return false }
        if queued == 0 { waitingSince = now }
        if queued + bytes.count > HTTPServer.queueLimit || now - waitingSince > HTTPServer.stallLimit {
            dropped = true
            chunks = []
            first = 0
            sent = 0
            queued = 0
        } else {
            chunks.append(bytes)
            queued += bytes.count
        }
        return resumed()
    }

    /// The end: what is queued is still sent, then the stream's last chunk. The lock held.
    /// - Returns: whether its connection is to be resumed.
    func close() -> Bool {
        closing = true
        return resumed()
    }

    /// No longer suspended, from now: the caller resumes the connection when this says it was.
    private func resumed() -> Bool {
        guard suspended else { return false }
        suspended = false
        return true
    }

    /// libmicrohttpd's content reader, on the server thread: what is queued, else the end (closing, dropped), else a
    /// suspension.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if dropped { return plumometer_mhd_end_with_error }
        if queued > 0 {
            let target = UnsafeMutableRawPointer(buffer)
            var copied = 0
            while copied < max && first < chunks.count {
                let chunk = chunks[first]
                let count = Swift.min(chunk.count - sent, max - copied)
                chunk.withUnsafeBytes { bytes in
                    (target + copied).copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
                }
                copied += count
                sent += count
                if sent == chunk.count {
                    first += 1
                    sent = 0
                }
            }
            queued -= copied
            if first == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                first = 0
            } else if first >= 64 {
                chunks.removeFirst(first)
                first = 0
            }
            waitingSince = Clock.monotonicMicroseconds()
            return copied
        }
        if closing { return plumometer_mhd_end_of_stream }
        suspended = true
        MHD_suspend_connection(connection)
        return 0
    }
}

let readStream: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return plumometer_mhd_end_with_error }
    return Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

let freeStream: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).release()
}
