/// One contact's weight at one frame: what plumometer reports.
public struct ContactReading: Hashable, Sendable {
    /// The contact's id (the kernel's tracking id, or a synthetic one).
    public var id: Int
    /// The multitouch slot, or nil for devices without slots.
    public var slot: Int?
    /// Position in device units, nil when the device reports none.
    public var x: Int32?
    /// Position in device units, nil when the device reports none.
    public var y: Int32?
    /// The raw pressure the device reported (before smoothing and tare), in device units.
    public var pressure: Int32
    /// `clamp((pressure - min) / (max - min), 0, 1)` after smoothing and tare are applied to the pressure; while the
    /// contact is stable, the pressure is its settled value (the mean since it came to rest), so a resting object
    /// reads steady.
    public var force: Double
    /// `force * 100`.
    public var percent: Double
    /// This contact's force divided by the heaviest contact's force (1 for the heaviest, 0 when all are zero).
    public var ratio: Double
    /// This contact's force divided by the sum of all forces (0 when all are zero).
    public var share: Double
    /// 1 for the heaviest, 2 for the next, and so on.
    public var rank: Int
    /// Whether this contact carries the heaviest mark (it moves on a clear lead kept for a moment, so not always
    /// rank 1 in a near-tie).
    public var heaviest: Bool
    /// Whether the value stayed within the stability tolerance for the stability window.
    public var stable: Bool
    /// Whether the raw pressure is at or above 98% of full scale: the true weight may be more.
    public var saturated: Bool
    /// Grams, from the axis resolution or a calibration; nil when neither is known.
    public var grams: Double?
    /// Whether this contact is the carrier of a carrier tare (``WeightTracker/tareCarrier()``).
    public var carrier: Bool

    /// Creates a reading; the tracker makes these, tests and other front ends may too.
    public init(
        id: Int,
        slot: Int?,
        x: Int32?,
        y: Int32?,
        pressure: Int32,
        force: Double,
        percent: Double,
        ratio: Double,
        share: Double,
        rank: Int,
        heaviest: Bool,
        stable: Bool,
        saturated: Bool,
        grams: Double?,
        carrier: Bool = false
    ) {
        self.id = id
        self.slot = slot
        self.x = x
        self.y = y
        self.pressure = pressure
        self.force = force
        self.percent = percent
        self.ratio = ratio
        self.share = share
        self.rank = rank
        self.heaviest = heaviest
        self.stable = stable
        self.saturated = saturated
        self.grams = grams
        self.carrier = carrier
    }
}

/// The readings of every contact on a device at one moment.
public struct Reading: Hashable, Sendable {
    /// The kernel time of the frame (or of the `tick` that re-evaluated stability).
    public var time: EventTime
    /// Every contact down, ordered by id.
    public var contacts: [ContactReading]
    /// True when the frame followed a `SYN_DROPPED` resynchronisation.
    public var resync: Bool
    /// The sum of every contact's grams (tared ones count with their sign), 0 with nothing down; nil when grams are
    /// not known.
    public var totalGrams: Double?

    /// Creates a reading of every contact at `time`.
    public init(time: EventTime, contacts: [ContactReading], resync: Bool = false, totalGrams: Double? = nil) {
        self.time = time
        self.contacts = contacts
        self.resync = resync
        self.totalGrams = totalGrams
    }

    /// The contact with the heaviest mark, if any.
    public var heaviest: ContactReading? { contacts.first(where: \.heaviest) }
}
