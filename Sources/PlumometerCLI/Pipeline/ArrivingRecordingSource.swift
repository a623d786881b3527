import PlumometerCore
import PlumometerRecording

/// A recording that arrives while it is played (`replay FILE`, `replay -`, a FIFO, a live `evemu-record` piped in)
/// as a source of frames in the poll loop: it waits for the device and its first event, has the pipeline begun
/// for them, then plays through a ``RecordingSource`` at the pace asked for.
///
/// Nothing here blocks: whenever the input has nothing more yet, its descriptor is watched in the poll loop (whose
/// signalfd keeps SIGINT and SIGTERM working) until it is ready, and unwatched again so a ready input that is not
/// needed yet (a paced replay ahead of its time) never makes the loop spin.
final class ArrivingRecordingSource: FrameSource {
    /// Builds the consumer for the device, once it and the time of its first event are known.
    typealias Begin = (StreamedDevice, EventTime) throws -> any FrameConsumer

    private let input: RecordingInput
    private let pacing: Pacing
    private let driver: Driver
    private let begin: Begin
    private var device: StreamedDevice?
    private var source: RecordingSource?
    private var token: Int?

    /// Plays the device `input` picks at `pacing`, into the consumer `begin` builds for it.
    init(_ input: RecordingInput, pacing: Pacing, driver: Driver, begin: @escaping Begin) {
        self.input = input
        self.pacing = pacing
        self.driver = driver
        self.begin = begin
    }

    /// The error that ended the recording early, if any: everything before it has been played.
    var failure: (any Error)? { source?.failure }

    func due() throws -> Due {
        if source == nil {
            var first: RawEvent?
            opening: while true {
                switch try input.pull() {
                case .device(let found): device = found
                case .event(let event, _):
                    first = event
                    break opening
                case .waiting:
                    return watchInput()
                case .end:
                    break opening
                }
            }
            // The input throws before its end when no device was picked.
            guard let device else { return .finished }
            let consumer = try begin(device, first?.time ?? .zero)
            source = RecordingSource(
                RecordingPlayer(device, first: first, from: input),
                pacing: pacing,
                into: consumer
            )
        }
        guard let source else { return .finished }
        let due = try source.due()
        guard due != .finished, source.isWaiting else { return due }
        return due.sooner(watchInput())
    }

    /// Watches the input until it is ready once; the next look at ``due()`` reads it.
    ///
    /// - Returns: `.within(0)` when the watch is new: the poll loop lists its descriptors before it asks for the
    ///   timeout, so one more turn is needed for the wait to include the input (else it could sleep for ever).
    private func watchInput() -> Due {
        guard token == nil else { return .idle }
        token = driver.watch(input.fileDescriptor) { [unowned self] in
            if let token = self.token { self.driver.unwatch(token) }
            self.token = nil
        }
        return .within(0)
    }
}
