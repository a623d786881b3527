import CLibevdev
import PlumometerLinux
import Testing

/// libevdev's own log lines reach plumometer's handler, not raw stderr, and at most ten a second pass.
@Suite(.serialized) struct LibevdevLogTests {
    @Test func atMostTenASecondThenACount() {
        var limiter = LogRateLimiter(limit: 10)
        var shown: [String] = []
        for index in 0..<25 { shown += limiter.admit("m\(index)", at: 100 + Double(index) / 100) }
        #expect(shown == (0..<10).map { "m\($0)" })
        #expect(limiter.pending == 15)
        // The next second's first message comes after the count of those left out.
        #expect(limiter.admit("later", at: 101.5) == ["15 more messages suppressed", "later"])
        #expect(limiter.pending == 0)
        #expect(limiter.admit("again", at: 101.6) == ["again"])
    }

    @Test func aLibevdevBugReportGoesThroughTheHandler() {
        nonisolated(unsafe) var messages: [String] = []
        LibevdevLog.install { messages.append($0) }
        // A device without a file descriptor: libevdev reports the caller's bug through its log function.
        let device = libevdev_new()
        defer { libevdev_free(device) }
        var event = input_event()
        #expect(libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event) < 0)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("not initialized") == true, "\(messages)")
        #expect(messages.first?.hasSuffix("\n") == false)
    }
}
