import PlumometerCore
import PlumometerOutput
import PlumometerSession

/// What `calibrate` fits grams from: two or more measured `--point RAW:GRAMS`, or `--reference` weights placed one
/// by one (guided), on a carrier of unknown weight or on a known `--direct-reference`; and how good a fit must be.
///
/// A value made from the command line that checks itself: something to calibrate with, and a
/// `--direct-reference` only under `--reference` weights (`--point` with `--reference` is the parser's).
struct CalibrationInput: Sendable {
    var points: [CalibrationPoint]
    var references: [(label: String, grams: Double)]
    /// `--direct-reference`: the carrier is this known weight.
    var carrier: (label: String, grams: Double)?
    var minimumRSquared: Double
    var allowContactSize: Bool

    /// Whether the readings come from a guided flow (`--reference`) rather than from `--point` pairs.
    var isGuided: Bool { points.isEmpty }

    /// Points are everything on the pad; a guided flow's grams are what was added on the carrier, unless the
    /// carrier is a known reference itself.
    var basis: CalibrationBasis { points.isEmpty && carrier == nil ? .carrier : .direct }

    /// The group's declarations.
    enum Options {
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
        static let minR2 = Option<Double>.number(
            "min-r2",
            value: "R2",
            above: 0,
            maximum: 1,
            help: "Refuse fits with R\u{B2} below this (default 0.97)."
        )
        /// Measured pairs or a guided flow, not both.
        static let pointsOrReferences = Exclusion(
            point,
            reference,
            message: "Give either --point (measured pairs) or --reference (guided), not both."
        )
    }

    /// The input `arguments` give.
    /// - Throws: ``UsageError`` for a value an option does not accept, a `--direct-reference` without `--reference`,
    ///   or nothing to calibrate with.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        minimumRSquared = try arguments.value(of: Options.minR2) ?? CalibrationGrade.acceptableRSquared
        points = try arguments.values(of: Options.point)
        references = try arguments.values(of: Options.reference)
        carrier = try arguments.value(of: Options.directReference)
        allowContactSize = arguments.flag(Options.allowContactSize)
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
    }

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

/// Where `calibrate` puts the profile and how it shows the fit: `-o FILE` (or `-`), `--save`, `--no-save`, `-f`.
///
/// A recording's identity is often a real device's, and its profile would apply to that device: a calibration
/// from a recording is saved only when asked for (`--save` or `-o`). `--save` with `--no-save` is the parser's.
struct ProfileOutput: Sendable {
    /// `-o FILE`: where to save instead of the default location; `-` is standard output.
    var path: String?
    var save: Bool
    var noSave: Bool
    var format: ReportFormat

    /// The group's declarations.
    enum Options {
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
        /// Saved or not, not both.
        static let saveOrNot = Exclusion(save, noSave)
    }

    /// The choice `arguments` make.
    /// - Throws: ``UsageError`` for a value an option does not accept.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = try arguments.value(of: Options.output)
        save = arguments.flag(Options.save)
        noSave = arguments.flag(Options.noSave)
        format = try arguments.value(of: Options.format) ?? .text
    }

    /// Where the profile of `identity` is saved, or nil when it is not: never with `--no-save`, from a recording
    /// only when asked for.
    func destination(for identity: DeviceIdentity, fromRecording: Bool) -> String? {
        guard !noSave && (!fromRecording || path != nil || save) else { return nil }
        return path ?? ProfileStore.defaultPath(for: identity)
    }

    /// Saves `calibration` where ``destination(for:fromRecording:)`` says, then writes the fit's report: on
    /// standard output, or on standard error when standard output carries the profile (`-o -`).
    /// - Throws: what saving or writing throws.
    func deliver(_ calibration: Calibration, fromRecording: Bool) throws {
        let destination = destination(for: calibration.device, fromRecording: fromRecording)
        if let destination { try ProfileStore.save(calibration, to: destination) }
        let why = noSave ? "--no-save" : "a recording: --save or -o FILE saves it"
        let report =
            format == .json
            ? CalibrationReport.json(calibration, savedPath: destination)
            : CalibrationReport.text(calibration, savedPath: destination, notSaved: why)
        if destination == "-" {
            Diagnostics.writeError(report)
        } else {
            try StandardOutput.write(report)
        }
    }
}
