import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension CalibrateCommand: Command {
    /// `calibrate`'s options.
    enum Options {
        static let device = Option.inputDevice(
            help: "The device to calibrate (identity and range; interactive readings). " + Option.replayDeviceHelp
        )
        static let replay = Option.replayFile(
            help: "Take the device identity and range from a recording instead."
        )
        static let point = Option<CalibrationPoint>(
            "point",
            value: "RAW:GRAMS",
            repeatable: true,
            help:
                "A measured point: raw pressure and every gram on the pad (placed directly: the fit's intercept is the pad's offset). Two or more make a non-interactive calibration.",
            convert: parsePoint
        )
        static let reference = Option<(label: String, grams: Double)>(
            "reference",
            value: "MASS",
            completion: .referenceWeight,
            repeatable: true,
            help: "A reference weight to place (interactive): '2x 5.67g', 'us-quarter', '3x 1-euro', '10g'.",
            convert: parseReference
        )
        static let directReference = Option<(label: String, grams: Double)>(
            "direct-reference",
            value: "MASS",
            completion: .referenceWeight,
            help:
                "The carrier is this known reference, placed first directly on the pad (guided): the fit then measures the pad's offset too.",
            convert: parseReference
        )
        static let allowContactSize = Flag(
            "allow-contact-size",
            help:
                "Calibrate a contact-size device anyway: its 'grams' then map contact area, not weight, and say so wherever they are read."
        )
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help:
                "Save the profile here instead of the default location (- for stdout: the fit's summary then goes to stderr)."
        )
        static let noSave = Flag("no-save", help: "Print the fit but do not save a profile.")
        static let save = Flag(
            "save",
            help: "With --replay: save the profile to the default location (a recording saves nothing unless asked)."
        )
        static let format = Option<ReportFormat>.choice(
            "format",
            short: "f",
            cases: ReportFormat.allCases,
            help: "Output format of the fit (default text)."
        )
        static let minR2 = Option<Double>.number(
            "min-r2",
            value: "R2",
            above: 0,
            maximum: 1,
            help: "Refuse fits with R\u{B2} below this (default 0.97)."
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
        options: [
            Options.device, Options.replay, ReplayCommand.Options.desc, Options.point, Options.reference,
            Options.directReference, Options.allowContactSize, Options.output, Options.save, Options.noSave,
            Options.format, Options.minR2, Flag.quiet,
        ],
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

    /// `RAW:GRAMS`, where GRAMS may also be a reference weight (`1830:us-quarter`, `3650:2x us-quarter`).
    static func parsePoint(_ text: String) throws(ValueError) -> CalibrationPoint {
        // A raw pressure is what the device reports: a whole number (as in the JSON `pressure` field).
        guard let colon = text.firstIndex(of: ":"), let raw = Int32(text[..<colon]) else {
            throw ValueError(
                message:
                    "'\(text)' is not a point; write RAW:GRAMS with RAW a whole raw pressure, e.g. --point 1830:5.67."
            )
        }
        let massText = String(text[text.index(after: colon)...])
        do {
            return CalibrationPoint(pressure: Double(raw), grams: try ReferenceWeight.parseMass(massText))
        } catch {
            throw ValueError(message: "In --point '\(text)': \(error)")
        }
    }

    /// A reference weight to place, with the words it was given in (the prompt repeats them).
    static func parseReference(_ text: String) throws(ValueError) -> (label: String, grams: Double) {
        do {
            return (text, try ReferenceWeight.parseMass(text))
        } catch {
            throw ValueError(message: "In --reference '\(text)': \(error)")
        }
    }
}

/// `plumometer calibrate`: fits grams against raw pressure and saves a per-device profile.
///
/// Two forms: `--point RAW:GRAMS` pairs given on the command line (scripts and tests), or a guided session that
/// waits for a stable reading of the carrier and then of each `--reference` weight added in turn, read from the
/// device (or from a recording with `--replay`, which scripts the same flow).
enum CalibrateCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let minimumRSquared =
            try arguments.value(of: Options.minR2)
            ?? CalibrationGrade.acceptableRSquared
        let wantsSave = arguments.flag(Options.save)
        if wantsSave && arguments.flag(Options.noSave) {
            throw arguments.usageError("Give either --save or --no-save, not both.")
        }
        try arguments.refuseSameFiles(
            outputs: [("-o", try arguments.value(of: Options.output))],
            inputs: [
                ("--replay", try arguments.value(of: Options.replay)),
                ("--desc", try arguments.value(of: ReplayCommand.Options.desc)),
            ]
        )
        let points = try arguments.values(of: Options.point)
        let references = try arguments.values(of: Options.reference)
        if !points.isEmpty && !references.isEmpty {
            throw arguments.usageError("Give either --point (measured pairs) or --reference (guided), not both.")
        }
        let carrier = try arguments.value(of: Options.directReference)
        if carrier != nil && references.isEmpty {
            throw arguments.usageError(
                "--direct-reference is the carrier of a guided calibration: give --reference weights to add on it."
            )
        }
        if points.isEmpty && references.isEmpty {
            throw arguments.usageError(
                "Nothing to calibrate with: give two or more --point RAW:GRAMS, or --reference weights to place one by one."
            )
        }
        let allowContactSize = arguments.flag(Options.allowContactSize)
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
                device: arguments.value(of: Options.device),
                replay: arguments.value(of: Options.replay),
                description: try arguments.recordingDescription(replay: Options.replay)
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
        // Points are everything on the pad; a guided flow's grams are what was added on the carrier, unless the
        // carrier is a known reference itself.
        let basis: CalibrationBasis = points.isEmpty && carrier == nil ? .carrier : .direct
        var measured = points
        if let guide {
            if session.stoppedBySignal && !guide.isDone && guide.failure == nil {
                throw CLIError.runtime("calibration interrupted before every weight was captured; nothing was saved.")
            }
            if let failure = guide.failure {
                throw CLIError.runtime("calibration refused: \(failure) Nothing was saved.")
            }
            guard guide.isDone else {
                throw CLIError.runtime("calibration incomplete: \(guide.incomplete) Nothing was saved.")
            }
            measured = guide.points
        }
        var calibration: Calibration
        do {
            calibration = try Calibration.fit(
                points: measured,
                device: description.identity,
                pressureRange: range,
                minimumRSquared: minimumRSquared,
                basis: basis
            )
        } catch {
            throw CLIError.runtime("calibration of '\(description.name)' refused: \(error)")
        }
        calibration.measuresContactArea = contactArea
        var savedPath: String?
        // A recording's identity is often a real device's: its profile would apply to that device, so a replayed
        // calibration is saved only when asked for.
        let output = try arguments.value(of: Options.output)
        let save = !arguments.flag(Options.noSave) && (!arguments.has(Options.replay) || output != nil || wantsSave)
        if save {
            let path = output ?? ProfileStore.defaultPath(for: description.identity)
            try ProfileStore.save(calibration, to: path)
            savedPath = path
        }
        let why = arguments.flag(Options.noSave) ? "--no-save" : "a recording: --save or -o FILE saves it"
        let summary =
            try arguments.value(of: Options.format) == .json
            ? json(calibration, savedPath: savedPath) : text(calibration, savedPath: savedPath, notSaved: why)
        // `-o -`: standard output carries the profile, so the summary goes to standard error.
        if savedPath == "-" {
            Diagnostics.writeError(summary)
        } else {
            try StandardOutput.write(summary)
        }
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

    static func text(_ calibration: Calibration, savedPath: String?, notSaved: String = "--no-save") -> String {
        var lines = [
            "device:     \(calibration.device.name.forTerminalName) [\(calibration.device.idString)]",
            "fit:        grams = " + NumberText.fixed(calibration.slope, 6) + " * pressure "
                + (calibration.intercept < 0 ? "- " : "+ ") + NumberText.fixed(Swift.abs(calibration.intercept), 3),
        ]
        if let carrier = calibration.carrierGrams {
            lines.append(
                "carrier:    " + NumberText.fixed(carrier, 3) + " g, the carrier's own weight (where the references' "
                    + "line crosses pressure 0); the profile leaves it out: pressure 0 reads 0 g, and anything placed "
                    + "directly on the pad reads its own weight"
            )
            if carrier < -Swift.max(calibration.largestResidual, 0.005) {
                lines.append(
                    "note:       a carrier lighter than nothing: this pad reads nothing below some load, so light "
                        + "objects placed directly read light; --direct-reference MASS measures that offset"
                )
            }
        } else {
            lines.append(
                "offset:     the intercept, what the pad reads at pressure 0, measured with references placed "
                    + "directly on it"
            )
        }
        if calibration.measuresContactArea {
            lines.append("measures:   " + DeviceRecord.contactAreaNotice + " (--allow-contact-size)")
        }
        lines += [
            "R\u{B2}:         " + NumberText.fixed(calibration.rSquared, 5) + " (\(calibration.grade.rawValue))",
            calibration.basis == .carrier ? "points:     (grams added on the carrier)" : "points:",
        ]
        for (point, residual) in zip(calibration.points, calibration.residuals) {
            lines.append(
                "  pressure " + NumberText.padLeft(NumberText.fixed(point.pressure, 1), 9) + "  grams "
                    + NumberText.padLeft(NumberText.fixed(point.grams, 3), 9) + "  residual "
                    + NumberText.fixed(residual, 3) + " g"
            )
        }
        if calibration.grade == .unchecked {
            lines.append("note:       two points always fit a line; add a third reference weight to check it")
        }
        lines.append(savedPath.map { "saved:      \($0)" } ?? "saved:      no (\(notSaved))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ calibration: Calibration, savedPath: String?) -> String {
        var line = "{\"device\":" + JSONText.string(calibration.device.name)
        line += ",\"id\":" + JSONText.string(calibration.device.idString)
        line += ",\"slope\":" + NumberText.fixed(calibration.slope, 6)
        line += ",\"intercept\":" + NumberText.fixed(calibration.intercept, 4)
        line += ",\"r2\":" + NumberText.fixed(calibration.rSquared, 6)
        line += ",\"grade\":" + JSONText.string(calibration.grade.rawValue)
        line += ",\"basis\":" + JSONText.string(calibration.basis.rawValue)
        line += ",\"carrier_grams\":" + JSONText.optional(calibration.carrierGrams) { NumberText.fixed($0, 4) }
        line += ",\"contact_area\":" + (calibration.measuresContactArea ? "true" : "false")
        // One statement per part: Swift 6.0's type checker gives up on a `+` chain around a closure.
        let points = calibration.points.map { point -> String in
            "{\"pressure\":" + NumberText.fixed(point.pressure, 2) + ",\"grams\":" + NumberText.fixed(point.grams, 3)
                + "}"
        }
        line += ",\"points\":[" + points.joined(separator: ",") + "]"
        line += ",\"residuals\":[" + calibration.residuals.map { NumberText.fixed($0, 4) }.joined(separator: ",") + "]"
        line += ",\"profile\":" + JSONText.optional(savedPath, JSONText.string) + "}\n"
        return line
    }
}
