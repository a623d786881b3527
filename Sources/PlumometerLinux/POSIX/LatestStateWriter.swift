public import PlumometerSeams

extension FileDescriptorWriter: LineSink, TextSink {
    public func write(_ text: String, droppable: Bool) throws { try write(text) }
    public func finish(timeout: Double) throws {}

    public var colourAllowed: Bool { Terminal.colourAllowed(on: fileDescriptor) }
    public var terminalSize: (columns: Int, rows: Int) { Terminal.size(of: fileDescriptor) }
    public func makeLatestStateWriter() -> (any LatestStateSink)? { LatestStateWriter(sink: self) }
}

/// Writes lines from a thread of its own, so a slow or stalled consumer of stdout never blocks the poll loop:
/// the device is still drained, its state still tracked, and when the consumer catches up it gets the latest
/// state. Frames that were replaced before they could be written are counted and reported on stderr; `device`
/// and `removed` records are never dropped, and order is kept.
///
/// Each line is still one complete `write` sequence, so a reader never sees half a line. While the consumer keeps
/// up, the caller writes each line itself (one `poll`, or none for a file or `/dev/null`, then one `write`) and
/// the writer thread sleeps: it is woken only when a line is queued, and the caller only when `finish` waits for
/// it. Waking the thread for every frame cost a futex wake and two context switches, a quarter of the reader's
/// CPU (docs/performance.md).
/// `@unchecked Sendable`: every mutable field is guarded by `condition`; the sink is used by one thread at a time
/// (the caller only while the writer thread is idle with nothing queued).
public final class LatestStateWriter: LatestStateSink, @unchecked Sendable {
    private struct Entry {
        var text: String
        var droppable: Bool
    }

    private let sink: FileDescriptorWriter
    private let condition = ConditionLock()
    private var queue: [Entry] = []
    private var writing = false
    private var stopping = false
    /// The writer thread is asleep waiting for a line (then a queued line must signal it).
    private var threadWaiting = false
    /// `finish` is waiting for the writer thread (then it must be told when a batch is done).
    private var finishWaiting = false
    private var failure: (any Error)?
    /// Frames replaced in the queue before they were written.
    public private(set) var skipped = 0
    private var reportedSkipped = 0
    private var lastReport = MonotonicClock.now()
    /// Records waiting for a stalled consumer before the oldest frames give way: 64 ms of a 1 kHz pad, about
    /// 256 KiB of 16-contact JSON lines.
    static let queueLimit = 64
    /// How often, at most, stderr hears about skipped frames.
    static let reportInterval: Int64 = 5_000_000

    public init(sink: FileDescriptorWriter) {
        self.sink = sink
        // The thread holds the writer until `finish` lets it end: queued lines are never dropped with the object.
        BackgroundThread.start { self.run() }
    }

    public func write(_ text: String, droppable: Bool) throws {
        condition.lock()
        if let failure {
            condition.unlock()
            throw failure
        }
        // The common case, a consumer that keeps up: nothing queued, the writer idle, and stdout able to take a
        // small write at once (a file or `/dev/null` takes any write at once). Writing here saves two context
        // switches per frame; anything that could block goes to the writer thread instead.
        if queue.isEmpty, !writing, sink.neverBlocks || text.utf8.count <= FileDescriptorWriter.smallWriteLimit,
            sink.canTakeSmallWrite
        {
            writing = true
            condition.unlock()
            var writeError: (any Error)?
            do { try sink.write(text, knownWritable: true) } catch { writeError = error }
            condition.lock()
            writing = false
            if let writeError, failure == nil { failure = writeError }
            // Nobody waits for this write: the writer thread waits for a queued line (there is none) and `finish`
            // runs on this thread. So no signal, and no wake-up.
            condition.unlock()
            if let writeError { throw writeError }
            return
        }
        // Frames queue up behind a writer that is merely busy, so a consumer that keeps up loses nothing. Once
        // `queueLimit` records wait (the consumer has stalled), the oldest waiting frame makes room: the queue
        // always ends with the newest state, and memory stays bounded however long the stall.
        if droppable, queue.count >= Self.queueLimit, let oldest = queue.firstIndex(where: \.droppable) {
            queue.remove(at: oldest)
            skipped += 1
        }
        queue.append(Entry(text: text, droppable: droppable))
        if threadWaiting { condition.signal() }
        let skippedNow = skipped
        condition.unlock()
        reportSkipped(skippedNow, force: false)
    }

    public func finish(timeout: Double) throws {
        condition.lock()
        stopping = true
        condition.broadcast()
        let deadline = Clock.monotonicMicroseconds() + Int64((timeout * 1_000_000).rounded())
        finishWaiting = true
        while (writing || !queue.isEmpty) && failure == nil {
            if !condition.wait(untilMonotonicMicroseconds: deadline) { break }
        }
        finishWaiting = false
        let unwritten = queue.count + (writing ? 1 : 0)
        let failure = self.failure
        let skippedNow = skipped
        condition.unlock()
        reportSkipped(skippedNow, force: true)
        if let failure { throw failure }
        if unwritten > 0 {
            note(
                "standard output did not take the last \(unwritten) record(s) within \(Int(timeout.rounded())) s; stopping without them"
            )
        }
    }

    private func reportSkipped(_ count: Int, force: Bool) {
        guard count > reportedSkipped else { return }
        let now = MonotonicClock.now()
        guard force || now.microseconds - lastReport.microseconds >= Self.reportInterval else { return }
        lastReport = now
        reportedSkipped = count
        note(
            "standard output is slow: \(count) frame(s) skipped so far; the latest state is always written"
        )
    }

    /// The writer thread: takes everything queued, writes it, repeats until told to stop and the queue is empty.
    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                threadWaiting = true
                condition.wait()
                threadWaiting = false
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
            if finishWaiting { condition.broadcast() }
            let stop = failure != nil
            condition.unlock()
            if stop { return }
        }
    }
}
