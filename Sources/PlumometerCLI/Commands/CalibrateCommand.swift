import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension CalibrateCommand: Command {
    /// `calibrate`'s options.
    enum Options {
        /// `-d`, `--replay`, `--desc`.
        static let selection = ReadingSelection.Options(
            device: "The device to calibrate (identity and range; interactive readings).",
            replay: "Take the device identity and range from a recording instead."
        )
    }

    /// The coins `--reference` (and `--point RAW:NAME`) accept by name, with their mints' masses: the help's list,
    /// from the table the parser reads, so the two never differ.
    static let referenceNames =
        "Coins by name (mint masses; also in counts and sums, '3x 1-euro', 'us-quarter + 1g'): "
        + ReferenceWeight.all.map { $0.name + " " + NumberText.trimmed($0.grams) + " g" }.joined(separator: ", ")
        + "."

    static let spec = CommandSpec(
        name: "calibrate",
        summary: "Fit grams to raw pressure from reference weights and save a per-device profile.",
        options: Options.selection.all + [
            CalibrationInput.Options.point, CalibrationInput.Options.reference,
            CalibrationInput.Options.directReference, CalibrationInput.Options.allowContactSize,
            ProfileOutput.Options.output, ProfileOutput.Options.save, ProfileOutput.Options.noSave,
            ProfileOutput.Options.format, CalibrationInput.Options.minR2, Flag.quiet,
        ],
        exclusions: [ProfileOutput.Options.saveOrNot, CalibrationInput.Options.pointsOrReferences],
        discussion: """
            A guided calibration stopped by SIGINT or SIGTERM saves nothing and exits 1 (unlike the other \
            commands, for which such a stop is a success: a calibration that did not finish is not one). \
            Profiles are JSON files under $XDG_CONFIG_HOME/plumometer/ (default ~/.config/plumometer/), one per \
            device identity, applied (and announced) whenever that device is read. The guided flow follows one \
            contact: put the carrier down alone and every reference on it; a contact added elsewhere, or the \
            carrier lifted between references, stops it with the reason and nothing saved. The pad's response \
            (grams per unit) comes from the increments the references make on the carrier; the carrier's own \
            weight is a result ('carrier:'), not part of the profile, which maps pressure to grams for anything \
            on the pad: pressure 0 reads 0 g. With --direct-reference the carrier is a known reference placed \
            directly on the pad, and the fit's intercept (what the pad reads at pressure 0) is measured and kept; \
            so it is for --point, whose grams are everything on the pad. Contact-size devices (their pressure \
            grows with the area touching, not with weight) and bogus ones are refused; --allow-contact-size \
            calibrates a contact-size device anyway, and everything that reads its profile says 'contact area, \
            not weight'. With --replay nothing \
            is saved unless --save or --output is given (a recording's identity is often a real device's). A fit \
            with R\u{B2} >= 0.985 is good, >= 0.97 acceptable; below that it is refused; two points are \
            'unchecked'. See docs/calibration.md.
            """ + " " + referenceNames,
        examples: [
            "plumometer calibrate -d /dev/input/event7 --reference us-quarter --reference '2x us-quarter'",
            "plumometer demo --save demo.evemu && plumometer calibrate --replay demo.evemu --point 0:0 --point 1200:1200 --point 2400:2400",
        ]
    )
}

/// `plumometer calibrate`: fits grams against raw pressure and saves a per-device profile.
///
/// Two forms: `--point RAW:GRAMS` pairs given on the command line (scripts and tests), or a guided session that
/// waits for a stable reading of the carrier and then of each `--reference` weight added in turn, read from the
/// device (or from a recording with `--replay`, which scripts the same flow).
enum CalibrateCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let selection = try ReadingSelection(arguments, Options.selection)
        let profile = try ProfileOutput(arguments)
        try arguments.refuseSameFiles(
            outputs: [("-o", profile.path)],
            inputs: [("--replay", selection.replay), ("--desc", selection.description)]
        )
        let input = try CalibrationInput(arguments)
        let (points, references, carrier) = (input.points, input.references, input.carrier)
        let allowContactSize = input.allowContactSize
        // What the device is decides the rest: the checks, then (with --reference) the guide frames go into.
        var checked: (description: DeviceDescription, range: AxisInfo, contactArea: Bool)?
        var guide: GuidedCalibration?
        func begin(_ device: OpenedDevice) throws -> GuidedCalibration? {
            let description = device.description
            guard let range = description.pressureRange else {
                preconditionFailure("prepared for calibrating: a device without a pressure axis is refused")
            }
            let contactArea = try refuseIfNotAScale(description, allowContactSize: allowContactSize)
            for point in points where point.pressure < Double(range.minimum) || point.pressure > Double(range.maximum) {
                throw CLIError.runtime(
                    "--point \(Int(point.pressure)):... is outside the pressure range of '\(description.name.forTerminal)' "
                        + "(\(range.minimum)..\(range.maximum)); use raw pressures as the device reports them (the JSON `pressure` field)."
                )
            }
            checked = (description, range, contactArea)
            guard points.isEmpty else { return nil }
            let made = GuidedCalibration(references: references, carrier: carrier, pressureRange: range)
            Diagnostics.writeError(made.prompt() + "\n")
            guide = made
            return made
        }
        // A source, the consumer built once the device is known, one run.
        let session = try Session()
        let source = try session.open(
            .chosen(
                device: selection.device,
                replay: selection.replay,
                description: selection.description
            ),
            for: .calibrating
        ) { device in
            guard let guide = try begin(device) else { return nil }
            // What rests on the device at open may complete the guide already. A recording that ends with a weight
            // at rest: the stability window passes (settle).
            return try device.initialFrame.map(guide.consume) == true ? nil : guide
        }
        defer { source.close() }
        try session.run(source)
        guard let checked else {
            // Stopped while the recording had not yet described its device: no fit, a failure like any stop.
            throw CLIError.runtime(
                "stopped before the recording described its device; nothing was calibrated or saved."
            )
        }
        let (description, range, contactArea) = checked
        if let failure = source.failure { throw failure }
        let measured = try guide.map { try captured($0, stoppedBySignal: session.stoppedBySignal) } ?? points
        let calibration = try fit(measured, of: description, range: range, contactArea: contactArea, input: input)
        try profile.deliver(calibration, fromRecording: selection.replay != nil)
    }

    /// The points a guided flow captured, or why there are none: interrupted, refused, or incomplete.
    /// - Throws: ``CLIError`` or ``CommandFailure`` (with the ``CalibrationGuideError``); nothing is saved.
    static func captured(_ guide: GuidedCalibration, stoppedBySignal: Bool) throws -> [CalibrationPoint] {
        if stoppedBySignal && !guide.isDone && guide.failure == nil {
            throw CLIError.runtime("calibration interrupted before every weight was captured; nothing was saved.")
        }
        if let failure = guide.failure {
            throw CommandFailure("calibration refused: ", cause: failure, " Nothing was saved.")
        }
        guard guide.isDone else {
            throw CLIError.runtime("calibration incomplete: \(guide.incomplete) Nothing was saved.")
        }
        return guide.points
    }

    /// The line through `points` for `description`'s pressure `range`, as `input` asks for it.
    /// - Throws: ``CommandFailure`` with the ``CalibrationError`` that refused the fit.
    static func fit(
        _ points: [CalibrationPoint],
        of description: DeviceDescription,
        range: AxisInfo,
        contactArea: Bool,
        input: CalibrationInput
    ) throws -> Calibration {
        var calibration: Calibration
        do {
            calibration = try Calibration.fit(
                points: points,
                device: description.identity,
                pressureRange: range,
                minimumRSquared: input.minimumRSquared,
                basis: input.basis
            )
        } catch {
            throw CommandFailure("calibration of '\(description.name)' refused: ", cause: error)
        }
        calibration.measuresContactArea = contactArea
        return calibration
    }

    /// Refuses a device whose pressure is no weight: `bogus` always (its axis carries no pressure), `contact-size`
    /// unless `allowContactSize` (its pressure grows with the area touching). On a force sensor `allowContactSize`
    /// changes nothing, and a note says so.
    /// - Returns: whether the calibration maps contact area (a contact-size device, allowed).
    /// - Throws: ``CLIError`` with the reason and what to do.
    static func refuseIfNotAScale(_ description: DeviceDescription, allowContactSize: Bool) throws -> Bool {
        let classification = DeviceClassifier.classify(description)
        let name = description.name.forTerminalName
        switch classification.sensing {
        case .bogus:
            throw CLIError.runtime(
                "'\(name)' cannot be calibrated: \(classification.reason) Its pressure carries no weight to fit "
                    + "grams to; 'plumometer probe' tells more."
            )
        case .contactSize where !allowContactSize:
            throw CLIError.runtime(
                "'\(name)' cannot be calibrated as a scale: \(classification.reason) Grams fitted to it would pass "
                    + "contact area off as weight. 'plumometer probe' checks with your finger whether it senses force; "
                    + "to map contact area to grams anyway (to compare objects of one kind), add --allow-contact-size: "
                    + "the profile is marked, and every reading of it says 'contact area, not weight'."
            )
        case .contactSize: return true
        case .forceWithUnits, .force:
            if allowContactSize {
                Diagnostics.note(
                    "'\(name)' senses force, not contact size: --allow-contact-size changes nothing here (the profile "
                        + "is a scale's, not marked as contact area)."
                )
            }
            return false
        case .none: return false
        }
    }
}
