public import PlumometerCore
import PlumometerOutput

/// The one place a source's ``ContactDecoder`` is made: a live device's (seeded with its state at open, fed the
/// bridge's resync markers) and a recording's are the same decoder, and both say alike, once, when events for
/// slots beyond the kept ones were dropped.
public struct SourceDecoder {
    private var decoder: ContactDecoder
    /// The node or file the events come from, for the message.
    private let name: String
    private let declaredSlots: Int?
    private var reported = false

    /// A decoder for `description`'s events, named `name` in messages.
    public init(_ description: DeviceDescription, name: String) {
        decoder = ContactDecoder(device: description)
        self.name = name
        declaredSlots = description.slotCount
    }

    /// Seeds the decoder with what rests on the device at open: a resync frame, or nil when the surface is clear.
    public mutating func seed(with state: DeviceState) -> ContactFrame? { decoder.seed(with: state) }

    /// Decodes one input; a frame at each `SYN_REPORT` (or the end of a resync).
    @inline(__always)
    public mutating func consume(_ input: DeviceInput) -> ContactFrame? { decoder.consume(input) }

    /// Decodes a batch of inputs (one read of a device), handing each frame to `body` as it completes; stops when
    /// `body` returns true and says so. One access to the decoder for the whole read: kept in a class (a live
    /// source), each single `consume` paid a runtime exclusivity check.
    @inline(__always)
    public mutating func consume(_ inputs: [DeviceInput], each body: (ContactFrame) throws -> Bool) rethrows -> Bool {
        try decoder.consume(inputs, each: body)
    }

    /// Says once, on stderr, how many events were for slots beyond the ones the decoder keeps: never silently.
    public mutating func reportDroppedSlots() {
        guard decoder.droppedSlotEvents > 0, !reported else { return }
        reported = true
        let declared = declaredSlots ?? 0
        Diagnostics.error(
            "\(name.forTerminalName): \(decoder.droppedSlotEvents) events for slots beyond the "
                + "\(Swift.min(declared, ContactDecoder.maximumSlots)) decoded were dropped (the device declares "
                + "\(declared) slots; at most \(ContactDecoder.maximumSlots) are kept); contacts in those slots were "
                + "not read."
        )
    }
}
