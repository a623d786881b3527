public import PlumometerCore

/// What the outputs say about a device when reading from it starts.
public struct DeviceRecord: Sendable {
    /// `/dev/input/eventN` or the recording's file name.
    public var path: String
    /// What the device says about itself.
    public var description: DeviceDescription
    /// The kernel time at which reading started (the first event's time for recordings).
    public var time: EventTime
    /// What kind of pressure the device senses, and why.
    public var classification: DeviceClassification
    /// Where grams come from, if anywhere.
    public var gramsSource: GramsSource
    /// When the calibration profile of ``gramsSource`` was made (ISO 8601), if it says.
    public var profileMade: String?
    /// The wall-clock time (Unix microseconds) at which the device was opened or the recording began to be read:
    /// the one offset from the kernel's clock to calendar time (`wall_time`, and `--timestamps wall`).
    public var wallTime: EventTime?

    /// Creates the record of a device whose reading starts at `time`.
    public init(
        path: String,
        description: DeviceDescription,
        time: EventTime,
        classification: DeviceClassification,
        gramsSource: GramsSource,
        wallTime: EventTime? = nil
    ) {
        self.path = path
        self.description = description
        self.time = time
        self.classification = classification
        self.gramsSource = gramsSource
        self.wallTime = wallTime
        self.profileMade = nil
    }

    /// `the calibration profile PATH (made DATE)` when a profile gives the grams, else nil.
    public var profileText: String? {
        guard case .calibration(let path) = gramsSource else { return nil }
        return "the calibration profile " + path.forTerminal + " ("
            + (profileMade.map { "made " + $0 } ?? "date made unknown")
            + ")"
    }

    /// What every reader says about the figures of a contact-size device (and of a profile made for one with
    /// `calibrate --allow-contact-size`): its pressure measures how much touches, so its percent, ratio, share and any
    /// grams compare contact areas.
    public static let contactAreaNotice =
        "contact area, not weight: this device's pressure grows with how much of each object touches it, so its "
        + "figures compare contact areas"

    /// Whether the calibration profile giving grams was made for contact area (`calibrate --allow-contact-size`).
    public var profileMapsContactArea = false

    /// ``contactAreaNotice`` for a contact-size device or a profile made for one, nil for the others (a force
    /// sensor's figures are force; a bogus axis has its own warning).
    public var meaningNotice: String? {
        classification.sensing == .contactSize || profileMapsContactArea ? Self.contactAreaNotice : nil
    }

    /// Where grams come from.
    public enum GramsSource: Sendable, Equatable {
        /// Nowhere: the outputs give forces and percentages only.
        case none
        /// The pressure axis's resolution, in units per gram.
        case resolution(Int32)
        /// A calibration profile, at this path.
        case calibration(String)
    }
}

extension DeviceDescription {
    /// What the `slots` field reports: the slot count, 1 for a single-touch device, nil for protocol A.
    public var reportedSlots: Int? {
        switch contactProtocol {
        case .multitouchSlots: slotCount
        case .singleTouch: 1
        case .multitouchAnonymous: nil
        }
    }
}
