public import PlumometerCore
public import PlumometerOutput

/// A device once it is known, whatever the source (a live node, a recording, the demo's bytes, a test's emulated
/// device): what it is, where it comes from, where reading starts, and what the one preparation made of it
/// (``DevicePreparation/prepare(_:path:node:from:at:initialFrame:hasEvents:for:)``: the refusal of a device without
/// a pressure axis, its calibration profile, its classification, its device record). Every consumer is built from
/// it (``Session/open(_:for:begin:)``).
public struct OpenedDevice {
    /// The device, as it described itself (a live one at open, a recorded one in its recording).
    public let description: DeviceDescription
    /// The node read, or the recording's name for its device: what messages and the device record name.
    public let path: String
    /// The node: a live device's, or the one a recording says its device had (nil when it says none).
    public let node: String?
    /// Where the device comes from.
    public let kind: SourceKind
    /// Where reading starts, in device time: now on a live device's clock, a recording's first event.
    public let start: EventTime
    /// What rests on a live device at open (a resync frame), for the consumer to take first; nil on a recording
    /// and on a clear surface.
    public let initialFrame: ContactFrame?
    /// Whether a recording holds an event at all (a live device: true).
    public let hasEvents: Bool
    /// What its pressure axis measures, from its description alone.
    public let classification: DeviceClassification
    /// Its calibration profile, when the use looks one up and one applies.
    public let profile: Profile?
    /// The `device` record the reading outputs write first.
    public let record: DeviceRecord

    /// Whether its figures compare contact areas, not weights: a contact-size device, or a profile made for one.
    public var comparesContactAreas: Bool {
        classification.sensing == .contactSize || profile?.calibration.measuresContactArea == true
    }
}

/// What a command wants of a device, which decides what the preparation does beyond classifying it.
public struct DeviceUse: Sendable {
    /// Refuse a device without a pressure axis (every reader of weights, and calibrate).
    public var needsPressure: Bool
    /// Look up its calibration profile (announced) and say what its figures mean; nil: no profile (calibrate, which
    /// makes one; probe, describe and record, which read no weights).
    public var profile: ProfileLookup?

    public init(needsPressure: Bool, profile: ProfileLookup?) {
        self.needsPressure = needsPressure
        self.profile = profile
    }

    /// Weights read (stream, replay, demo, plot, weigh): a pressure axis needed, the profile `--profile` or
    /// `--no-profile` chose.
    public static func reading(_ profile: ProfileLookup) -> DeviceUse {
        DeviceUse(needsPressure: true, profile: profile)
    }

    /// Weights read with a reading command's settings.
    public static func reading(_ settings: ReadingSettings) -> DeviceUse {
        .reading(ProfileLookup(path: settings.profilePath, ignoreSaved: settings.ignoreSavedProfile))
    }

    /// `calibrate`: a pressure axis needed, no profile (it makes one).
    public static let calibrating = DeviceUse(needsPressure: true, profile: nil)

    /// `probe`, `describe`, `record`: any device, no profile.
    public static let inspecting = DeviceUse(needsPressure: false, profile: nil)
}

/// Which calibration profile applies: `--profile FILE`, or the saved one unless `--no-profile`.
public struct ProfileLookup: Sendable {
    public var path: String?
    public var ignoreSaved: Bool

    public init(path: String? = nil, ignoreSaved: Bool = false) {
        self.path = path
        self.ignoreSaved = ignoreSaved
    }
}

/// Where a device comes from, as the command chose it (`-d`, `--replay FILE`, a recording, the demo).
public enum DeviceOpening {
    /// A live device, opened when the session opens it: a ``LiveSource`` over the runtime's devices (the bridge's
    /// evdev nodes in the tool, the test kit's scripted devices in-process), its hooks set by whoever chose it.
    case live(() throws -> LiveSource)
    /// A recording read as it arrives (a file, `-`, a FIFO, the demo's bytes), played at `pacing`.
    case recording(RecordingInput, pacing: Pacing)
}
