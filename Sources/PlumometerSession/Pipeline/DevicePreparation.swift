public import PlumometerCore
public import PlumometerOutput

/// Where the device being read comes from, for what a session says about it.
public enum SourceKind: Sendable {
    /// A live evdev device: another one could be chosen.
    case device
    /// A recording, or the bundled demo.
    case recording
}

/// What every reader of a device does before its first frame, in one place, whatever the source: the refusal of a
/// device without a pressure axis, its calibration profile, its classification and what its figures mean, and its
/// device record. ``Session/open(_:for:begin:)`` calls it once per device opened.
public enum DevicePreparation {
    /// Prepares a device once it is known: refuses it without a pressure axis when `use` needs one, finds its
    /// calibration profile (announced) when `use` reads weights, classifies it (for a reader of weights, warning
    /// about a bogus axis, and noting that a contact-size device's figures, or a profile made for one, compare
    /// contact areas) and makes its record.
    /// - Parameters:
    ///   - path: the node read, or the recording's name for its device.
    ///   - node: the node: a live device's, or the one a recording says its device had.
    ///   - time: where reading starts, in device time.
    ///   - initialFrame: what rests on a live device at open.
    ///   - hasEvents: whether a recording holds an event at all.
    public static func prepare(
        _ description: DeviceDescription,
        path: String,
        node: String?,
        from kind: SourceKind,
        at time: EventTime,
        initialFrame: ContactFrame?,
        hasEvents: Bool,
        for use: DeviceUse
    ) throws -> OpenedDevice {
        if use.needsPressure { try requirePressureAxis(description, path: path, listHint: kind == .device) }
        let profile = try use.profile.flatMap { choice in
            try ProfileStore.profile(for: description, explicitPath: choice.path, ignoreSaved: choice.ignoreSaved)
        }
        let classification = DeviceClassifier.classify(description)
        if use.profile != nil {
            if classification.sensing == .bogus {
                // Declared but unusable (an empty or inverted range, a range copied from a position axis): readings
                // are still written, but the user must know not to trust them.
                Diagnostics.error(
                    "warning: \(description.name.forTerminalName): \(classification.reason) Its readings cannot be "
                        + "trusted; 'plumometer probe' tells more."
                )
            }
            noteMeaning(description, classification: classification, profile: profile?.calibration)
        }
        var record = DeviceRecord(
            path: path,
            description: description,
            time: time,
            classification: classification,
            gramsSource: Self.gramsSource(description, profile: profile?.path),
            wallTime: WallClock.now()
        )
        record.profileMade = profile?.made
        record.profileMapsContactArea = profile?.calibration.measuresContactArea == true
        return OpenedDevice(
            description: description,
            path: path,
            node: node,
            kind: kind,
            start: time,
            initialFrame: initialFrame,
            hasEvents: hasEvents,
            classification: classification,
            profile: profile,
            record: record
        )
    }

    /// Says on stderr, for every reader of a contact-size device (live or recorded, with a profile or not), that its
    /// figures compare contact areas: ``DeviceRecord/contactAreaNotice``, then why the device is taken for one.
    /// - Returns: whether the figures compare contact areas: a contact-size device, or a profile made for one.
    @discardableResult
    public static func noteMeaning(
        _ description: DeviceDescription,
        classification: DeviceClassification,
        profile: Calibration?
    ) -> Bool {
        let marked = profile?.measuresContactArea == true
        guard classification.sensing == .contactSize || marked else { return false }
        Diagnostics.note(
            "\(description.name.forTerminalName): \(DeviceRecord.contactAreaNotice). "
                + (classification.sensing == .contactSize
                    ? classification.reason : "Its calibration profile was made with --allow-contact-size.")
        )
        return true
    }

    /// The one refusal of a device without a pressure axis (neither `ABS_MT_PRESSURE` nor `ABS_PRESSURE`), in the
    /// same words for every command.
    /// - Parameter listHint: add "'plumometer list' shows which devices can" (a live device: another could be chosen).
    public static func requirePressureAxis(_ description: DeviceDescription, path: String, listHint: Bool) throws {
        guard description.pressureAxis == nil else { return }
        throw CLIError.runtime(
            "\(path.forTerminalName) ('\(description.name.forTerminalName)') has no pressure axis (neither "
                + "ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything."
                + (listHint ? " 'plumometer list' shows which devices can." : "")
        )
    }

    /// Where grams come from: a calibration profile, else the pressure axis' resolution (units per gram), else
    /// nowhere.
    public static func gramsSource(_ description: DeviceDescription, profile: String?) -> DeviceRecord.GramsSource {
        if let profile { return .calibration(profile) }
        if let range = description.pressureRange, range.resolution > 0 { return .resolution(range.resolution) }
        return .none
    }
}
