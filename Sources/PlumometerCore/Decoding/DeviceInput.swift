/// What a source hands the decoder: an event, or a marker around libevdev's resynchronisation.
///
/// When the kernel's buffer for a reader overflows it drops the events and queues `SYN_DROPPED`; libevdev then
/// re-reads the device's state and delivers the difference as synthesised events, in one or two frames (first
/// ending the slots whose contact vanished or changed its tracking id, then the rest). The bridge brackets those
/// events with ``resyncBegan(_:)`` and ``resyncEnded``, so the decoder can merge them into one resync frame
/// however the reads split them. A recording has no markers: a `SYN_DROPPED` it holds is an ``event(_:)``.
public enum DeviceInput: Hashable, Sendable {
    /// An event as the kernel delivered it, or as libevdev synthesised it during a resynchronisation.
    case event(RawEvent)
    /// The kernel dropped events (`SYN_DROPPED` at this time); libevdev's difference to the true state follows.
    case resyncBegan(EventTime)
    /// libevdev's difference is complete: the decoder's state is the device's true state again.
    case resyncEnded

    /// The event a recording keeps for this input: the event itself, the `SYN_DROPPED` for a resync's start, and
    /// nothing for its end (evemu-record writes what it reads, and it reads no end marker).
    public var recordedEvent: RawEvent? {
        switch self {
        case .event(let event): event
        case .resyncBegan(let time): .syn(.dropped, at: time)
        case .resyncEnded: nil
        }
    }
}
