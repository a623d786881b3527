import CLibevdev
import Glibc

/// libevdev's own log lines (its `log_bug`/`log_error` messages, which it prints raw on stderr by default),
/// routed to a handler the CLI sets, rate-limited by ``LogRateLimiter``.
///
/// The corresponding C function is `libevdev_set_log_function`.
public enum LibevdevLog {
    nonisolated(unsafe) private static var handler: ((String) -> Void)?
    nonisolated(unsafe) private static var limiter = LogRateLimiter()

    /// Routes libevdev's log through `handler`: each message once formatted, without its trailing newline, or
    /// the count of the messages the rate limit left out. Call it once, before any device is opened.
    public static func install(_ handler: @escaping (String) -> Void) {
        Self.handler = handler
        libevdev_set_log_function(
            { _, _, _, _, _, format, arguments in
                guard let format, let arguments else { return }
                var buffer = [CChar](repeating: 0, count: 512)
                _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                LibevdevLog.deliver(text, at: LibevdevLog.now())
            },
            nil
        )
    }

    /// Passes one message through the rate limit to the handler.
    static func deliver(_ text: String, at seconds: Double) {
        let trimmed = String(text.reversed().drop { $0 == "\n" }.reversed())
        for line in limiter.admit(trimmed, at: seconds) { handler?(line) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// At most `limit` messages per second; the ones over it are counted and reported as one line when the next
/// second's first message comes.
public struct LogRateLimiter: Sendable {
    /// The most messages passed in one second.
    public let limit: Int
    private var windowStart: Double?
    private var passed = 0
    private var suppressed = 0

    /// A limiter passing at most `limit` messages per second.
    public init(limit: Int = 10) { self.limit = limit }

    /// The lines to show for `message` arriving at `seconds` (monotonic): the message, preceded by the count of
    /// those suppressed before it; nothing when it is over the limit.
    public mutating func admit(_ message: String, at seconds: Double) -> [String] {
        var lines: [String] = []
        if windowStart.map({ seconds - $0 >= 1 }) ?? true {
            if suppressed > 0 { lines.append("\(suppressed) more message\(suppressed == 1 ? "" : "s") suppressed") }
            windowStart = seconds
            passed = 0
            suppressed = 0
        }
        guard passed < limit else {
            suppressed += 1
            return lines
        }
        passed += 1
        return lines + [message]
    }

    /// The count of messages suppressed in the current second and not yet reported.
    public var pending: Int { suppressed }
}
