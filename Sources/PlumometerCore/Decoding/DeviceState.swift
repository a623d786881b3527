/// A device's state as it stood when it was opened, read once by the bridge and handed to the decoder as a value.
///
/// The kernel keeps the current value of every axis, slot and key; libevdev reads them at open (`EVIOCGABS`,
/// `EVIOCGMTSLOTS`, `EVIOCGKEY`). Seeding a ``ContactDecoder`` with them reports what already rests on the
/// surface from the first frame, and lets the events that follow continue from the true state: the kernel sends
/// only what changes, so a slot, key or axis it does not mention keeps the value it had at open.
public struct DeviceState: Hashable, Sendable {
    /// Per protocol B slot (the first slot first), its value of every `ABS_MT_*` axis, `ABS_MT_TRACKING_ID`
    /// included (-1 for an empty slot). Empty for a device without slots.
    public var slots: [[AbsoluteAxis: Int32]]
    /// The value of `ABS_MT_SLOT`, the slot the next multitouch values are for, or nil when unknown. The kernel
    /// sends `ABS_MT_SLOT` only when the slot changes, so the first events after open may be for this one.
    public var currentSlot: Int32?
    /// The values of the axes that are not multitouch (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`, ...).
    public var axes: [AbsoluteAxis: Int32]
    /// The keys held down (`BTN_TOUCH`, `BTN_TOOL_FINGER`, `BTN_TOOL_PEN`, ...).
    public var keysDown: Set<KeyCode>
    /// When the state was read, on the device's event clock: the time of the frame that reports it.
    public var time: EventTime

    /// Creates a state; a device at rest with nothing down has every collection empty.
    public init(
        slots: [[AbsoluteAxis: Int32]] = [],
        currentSlot: Int32? = nil,
        axes: [AbsoluteAxis: Int32] = [:],
        keysDown: Set<KeyCode> = [],
        time: EventTime
    ) {
        self.slots = slots
        self.currentSlot = currentSlot
        self.axes = axes
        self.keysDown = keysDown
        self.time = time
    }
}
