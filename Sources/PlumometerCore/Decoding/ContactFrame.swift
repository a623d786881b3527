/// One contact as the device reported it at a `SYN_REPORT`: identity, slot, position and raw pressure.
///
/// Values are raw device units; normalisation happens in the tracker, which knows the axis ranges.
public struct ContactSample: Hashable, Sendable {
    /// The contact's identity: the kernel's `ABS_MT_TRACKING_ID` for protocol B devices, a synthetic id that
    /// stays the same while the contact lasts for protocol A and single-touch devices.
    public var id: Int
    /// The slot (protocol B), or nil.
    public var slot: Int?
    /// Position in device units (`ABS_MT_POSITION_X`, or `ABS_X` for a single contact), nil when never reported.
    public var x: Int32?
    /// Position in device units (`ABS_MT_POSITION_Y`, or `ABS_Y`), nil when never reported.
    public var y: Int32?
    /// Raw pressure in device units, or nil when the device sent none for this contact.
    public var pressure: Int32?
    /// The contact ellipse's major axis (`ABS_MT_TOUCH_MAJOR`), when the device reports it.
    public var touchMajor: Int32?
    /// The contact ellipse's minor axis (`ABS_MT_TOUCH_MINOR`), when the device reports it.
    public var touchMinor: Int32?

    /// Creates a sample; every value but the id is optional, as devices report only some axes.
    public init(
        id: Int,
        slot: Int? = nil,
        x: Int32? = nil,
        y: Int32? = nil,
        pressure: Int32? = nil,
        touchMajor: Int32? = nil,
        touchMinor: Int32? = nil
    ) {
        self.id = id
        self.slot = slot
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
    }
}

/// The complete contact state of a device at one `SYN_REPORT`.
public struct ContactFrame: Hashable, Sendable {
    /// The kernel time of the `SYN_REPORT` that closed the frame.
    public var time: EventTime
    /// Every contact down at this frame, ordered by id. Empty when the surface is clear.
    public var contacts: [ContactSample]
    /// True for the first frame after a `SYN_DROPPED` resynchronisation (or the initial state at open).
    public var resync: Bool

    /// Creates a frame; the contacts are ordered by id.
    public init(time: EventTime, contacts: [ContactSample], resync: Bool = false) {
        self.time = time
        self.contacts = contacts.sorted { $0.id < $1.id }
        self.resync = resync
    }

    /// Creates a frame of contacts already ordered by id (the decoder's), sharing their storage: no sort, no copy.
    init(time: EventTime, orderedContacts contacts: [ContactSample], resync: Bool) {
        self.time = time
        self.contacts = contacts
        self.resync = resync
    }
}
