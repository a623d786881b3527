import Foundation
import PlumometerLinux

/// Somewhere lines go. `droppable` lines are frames: a newer frame makes an unwritten older one worthless.
protocol LineSink: AnyObject {
    func write(_ text: String, droppable: Bool) throws
    /// Writes what is still queued (waiting at most `timeout` seconds for a stuck reader) and reports.
    func finish(timeout: Double) throws
}

extension FileDescriptorWriter: LineSink {
    func write(_ text: String, droppable: Bool) throws { try write(text) }
    func finish(timeout: Double) throws {}
}

/// Writes lines from a thread of its own, so a slow or stalled consumer of stdout never blocks the poll loop:
/// the device is still drained, its state still tracked, and when the consumer catches up it gets the latest
/// state. Frames that were replaced before they could be written are counted and reported on stderr; `device`
/// and `removed` records are never dropped, and order is kept.
///
/// Each line is still one complete `write` sequence from the writer thread, so a reader never sees half a line.
/// `@unchecked Sendable`: every mutable field is guarded by `condition`; the sink is used only by the writer thread.
final class LatestStateWriter: LineSink, @unchecked Sendable {
    private struct Entry {
        var text: String
        var droppable: Bool
    }

    private let sink: FileDescriptorWriter
    private let condition = NSCondition()
    private var queue: [Entry] = []
    private var writing = false
    private var stopping = false
    private var failure: (any Error)?
    private var thread: Thread?
    /// Frames replaced in the queue before they were written.
    private(set) var skipped = 0
    private var reportedSkipped = 0
    private var lastReport = MonotonicClock.now()
    /// Entries queued behind an idle writer before frames start replacing each other.
    static let queueLimit = 64
    /// How often, at most, stderr hears about skipped frames.
    static let reportInterval: Int64 = 5_000_000

    init(sink: FileDescriptorWriter) {
        self.sink = sink
        // The thread holds the writer until `finish` lets it end: queued lines are never dropped with the object.
        let thread = Thread { self.run() }
        thread.name = "plumometer stdout"
        self.thread = thread
        thread.start()
    }

    func write(_ text: String, droppable: Bool) throws {
        condition.lock()
        if let failure {
            condition.unlock()
            throw failure
        }
        // A frame replaces the queued one only while the writer is stuck in a write (or far behind): a writer
        // that merely has not been scheduled yet gets every frame.
        if droppable, writing || queue.count >= Self.queueLimit, let last = queue.last, last.droppable {
            queue[queue.count - 1] = Entry(text: text, droppable: true)
            skipped += 1
        } else {
            queue.append(Entry(text: text, droppable: droppable))
        }
        condition.signal()
        let skippedNow = skipped
        condition.unlock()
        reportSkipped(skippedNow, force: false)
    }

    func finish(timeout: Double) throws {
        condition.lock()
        stopping = true
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while (writing || !queue.isEmpty) && failure == nil {
            if !condition.wait(until: deadline) { break }
        }
        let unwritten = queue.count + (writing ? 1 : 0)
        let failure = self.failure
        let skippedNow = skipped
        condition.unlock()
        reportSkipped(skippedNow, force: true)
        if let failure { throw failure }
        if unwritten > 0 {
            Diagnostics.note("standard output did not take the last \(unwritten) record(s) within \(NumberText.fixed(timeout, 0)) s; stopping without them")
        }
    }

    private func reportSkipped(_ count: Int, force: Bool) {
        guard count > reportedSkipped else { return }
        let now = MonotonicClock.now()
        guard force || now.microseconds - lastReport.microseconds >= Self.reportInterval else { return }
        lastReport = now
        reportedSkipped = count
        Diagnostics.note("standard output is slow: \(count) frame(s) skipped so far; the latest state is always written")
    }

    /// The writer thread: takes everything queued, writes it, repeats until told to stop and the queue is empty.
    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                condition.wait()
            }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            writing = true
            condition.unlock()
            var error: (any Error)?
            do {
                for entry in batch { try sink.write(entry.text) }
            } catch let caught {
                error = caught
            }
            condition.lock()
            writing = false
            if let error, failure == nil { failure = error }
            condition.broadcast()
            let stop = failure != nil
            condition.unlock()
            if stop { return }
        }
    }
}
