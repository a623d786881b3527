import Glibc
import PlumometerCore
import PlumometerLinux
import PlumometerRecording

/// `plumometer calibrate`: fits grams against raw pressure and saves a per-device profile.
///
/// Two forms: `--point RAW:GRAMS` pairs given on the command line (scripts and tests), or a guided session that
/// waits for a stable reading of the carrier and then of each `--reference` weight added in turn, read from the
/// device (or from a recording with `--replay`, which scripts the same flow).
enum CalibrateCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let minimumRSquared = try arguments.number("min-r2", command: "calibrate", above: 0) ?? CalibrationGrade.acceptableRSquared
        if arguments.has("device") && arguments.has("replay") {
            throw UsageError(message: "Give either --device or --replay, not both.", command: "calibrate")
        }
        let points = try arguments.all("point").map(parsePoint)
        let references = try arguments.all("reference").map(parseReference)
        if !points.isEmpty && !references.isEmpty {
            throw UsageError(message: "Give either --point (measured pairs) or --reference (guided), not both.", command: "calibrate")
        }
        if points.isEmpty && references.isEmpty {
            throw UsageError(
                message: "Nothing to calibrate with: give two or more --point RAW:GRAMS, or --reference weights to place one by one.",
                command: "calibrate"
            )
        }
        let source = try CalibrationSource(arguments)
        let description = source.description
        guard let range = description.pressureRange else {
            throw CLIError.runtime("\(description.path) ('\(description.name)') has no pressure axis; it cannot be calibrated.")
        }
        let measured = points.isEmpty ? try source.guided(references: references) : points
        let calibration: Calibration
        do {
            calibration = try Calibration.fit(
                points: measured, device: description.identity, pressureRange: range, minimumRSquared: minimumRSquared
            )
        } catch {
            throw CLIError.runtime("calibration of '\(description.name)' refused: \(error)")
        }
        var savedPath: String?
        if !arguments.has("no-save") {
            let path = arguments.value("output") ?? ProfileStore.defaultPath(for: description.identity)
            try ProfileStore.save(calibration, to: path)
            savedPath = path
        }
        let sink = OutputSink.standardOutput()
        if arguments.value("format") == "json" {
            try sink.write(json(calibration, savedPath: savedPath))
        } else {
            try sink.write(text(calibration, savedPath: savedPath))
        }
    }

    /// `RAW:GRAMS`, where GRAMS may also be a reference weight (`1830:us-quarter`, `3650:2x us-quarter`).
    static func parsePoint(_ text: String) throws(UsageError) -> CalibrationPoint {
        guard let colon = text.firstIndex(of: ":"), let raw = Double(text[..<colon]), raw.isFinite else {
            throw UsageError(message: "'\(text)' is not a point; write RAW:GRAMS, e.g. --point 1830:5.67.", command: "calibrate")
        }
        let massText = String(text[text.index(after: colon)...])
        do {
            return CalibrationPoint(pressure: raw, grams: try ReferenceWeight.parseMass(massText))
        } catch {
            throw UsageError(message: "In --point '\(text)': \(error)", command: "calibrate")
        }
    }

    static func parseReference(_ text: String) throws(UsageError) -> (label: String, grams: Double) {
        do {
            return (text, try ReferenceWeight.parseMass(text))
        } catch {
            throw UsageError(message: "In --reference '\(text)': \(error)", command: "calibrate")
        }
    }

    static func text(_ calibration: Calibration, savedPath: String?) -> String {
        var lines = [
            "device:     \(calibration.device.name) [\(calibration.device.idString)]",
            "fit:        grams = " + NumberText.fixed(calibration.slope, 6) + " * pressure "
                + (calibration.intercept < 0 ? "- " : "+ ") + NumberText.fixed(Swift.abs(calibration.intercept), 3),
            "R\u{B2}:         " + NumberText.fixed(calibration.rSquared, 5) + " (\(calibration.grade.rawValue))",
            "points:",
        ]
        for (point, residual) in zip(calibration.points, calibration.residuals) {
            lines.append(
                "  pressure " + NumberText.padLeft(NumberText.fixed(point.pressure, 1), 9) + "  grams "
                    + NumberText.padLeft(NumberText.fixed(point.grams, 3), 9) + "  residual "
                    + NumberText.fixed(residual, 3) + " g"
            )
        }
        lines.append(savedPath.map { "saved:      \($0)" } ?? "saved:      no (--no-save)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ calibration: Calibration, savedPath: String?) -> String {
        var line = "{\"device\":" + JSONText.string(calibration.device.name)
        line += ",\"id\":" + JSONText.string(calibration.device.idString)
        line += ",\"slope\":" + NumberText.fixed(calibration.slope, 6)
        line += ",\"intercept\":" + NumberText.fixed(calibration.intercept, 4)
        line += ",\"r2\":" + NumberText.fixed(calibration.rSquared, 6)
        line += ",\"grade\":" + JSONText.string(calibration.grade.rawValue)
        line += ",\"points\":[" + calibration.points.map {
            "{\"pressure\":" + NumberText.fixed($0.pressure, 2) + ",\"grams\":" + NumberText.fixed($0.grams, 3) + "}"
        }.joined(separator: ",") + "]"
        line += ",\"residuals\":[" + calibration.residuals.map { NumberText.fixed($0, 4) }.joined(separator: ",") + "]"
        line += ",\"profile\":" + JSONText.optional(savedPath, JSONText.string) + "}\n"
        return line
    }
}

/// Where a calibration's device identity, range and (guided) readings come from.
struct CalibrationSource {
    enum Origin {
        case device(String)
        case recording(RecordedDevice)
    }

    let origin: Origin
    let description: DeviceDescription

    init(_ arguments: ParsedArguments) throws {
        if let file = arguments.value("replay") {
            let device = try RecordingFile.device(file, selector: nil)
            origin = .recording(device)
            description = device.description
        } else {
            let path = try DeviceTarget(arguments.value("device")).resolve()
            let device: EvdevDevice
            do throws(DeviceError) {
                device = try EvdevDevice(path: path)
            } catch {
                throw CLIError.runtime(error.description)
            }
            description = device.description
            device.close()
            origin = .device(path)
        }
    }

    /// Runs the guided flow and returns the captured points.
    func guided(references: [(label: String, grams: Double)]) throws -> [CalibrationPoint] {
        var guide = CalibrationGuide(references: references, pressureRange: description.pressureRange!)
        Diagnostics.writeError(guide.prompt() + "\n")
        var tracker = WeightTracker(pressureRange: description.pressureRange!)
        func observe(_ reading: Reading) -> Bool {
            if let message = guide.observe(reading) {
                Diagnostics.writeError(message + "\n")
                if !guide.isDone { Diagnostics.writeError(guide.prompt() + "\n") }
            }
            return guide.isDone
        }
        switch origin {
        case .recording(let recorded):
            var events = recorded.events
            var decoder = ContactDecoder(device: description)
            var lastTick = EventTime.zero
            var lastTime = EventTime.zero
            do throws(RecordingError) {
                while let event = try events.next() {
                    lastTime = event.time
                    if event.time.microseconds - lastTick.microseconds >= 10_000 {
                        lastTick = event.time
                        if let reading = tracker.tick(now: event.time), observe(reading) { break }
                    }
                    if let frame = decoder.consume(event), observe(tracker.consume(frame)) { break }
                }
            } catch {
                throw CLIError.runtime(error.description)
            }
            // A recording that ends with an object at rest: let the stability window pass.
            if !guide.isDone, let reading = tracker.tick(now: lastTime.adding(seconds: 1)) { _ = observe(reading) }
        case .device(let path):
            let device: EvdevDevice
            do throws(DeviceError) {
                device = try EvdevDevice(path: path)
            } catch {
                throw CLIError.runtime(error.description)
            }
            defer { device.close() }
            var clock = DeviceClock(deviceUsesMonotonic: device.usesMonotonicClock)
            let driver = try Driver()
            if let frame = device.initialFrame(), observe(tracker.consume(frame)) { return guide.points }
            driver.watch(device.fileDescriptor) {
                let batch: DeviceBatch
                do throws(DeviceError) {
                    batch = try device.read()
                } catch {
                    throw CLIError.runtime(error.description)
                }
                for frame in batch.frames {
                    clock.observed(frame.time)
                    if observe(tracker.consume(frame)) {
                        driver.finish()
                        return
                    }
                }
            }
            driver.work = {
                // Only once something is down: stability needs the device's clock, known from its first event.
                guard !tracker.current.contacts.isEmpty else { return -1 }
                if let reading = tracker.tick(now: clock.now()), observe(reading) {
                    driver.finish()
                    return 0
                }
                return 100
            }
            try driver.run()
            if driver.stoppedBySignal { throw CLIError.runtime("calibration interrupted; nothing was saved.") }
        }
        guard guide.isDone else {
            throw CLIError.runtime(
                "calibration incomplete: captured \(guide.points.count) of \(references.count + 1) stable readings. "
                    + "Keep each weight still until it is captured."
            )
        }
        return guide.points
    }
}

/// The guided calibration as a state machine over readings: capture the carrier, then each reference weight,
/// each once the total pressure is stable and has changed clearly since the last capture.
struct CalibrationGuide {
    let steps: [(label: String, grams: Double)]
    private(set) var points: [CalibrationPoint] = []
    /// The smallest change in total raw pressure that counts as "a weight was added": 2% of full scale.
    let minimumChange: Double

    init(references: [(label: String, grams: Double)], pressureRange: AxisInfo) {
        var cumulative = 0.0
        var steps: [(label: String, grams: Double)] = [("the carrier (finger, spoon or container) alone", 0)]
        for reference in references {
            cumulative += reference.grams
            steps.append((reference.label, cumulative))
        }
        self.steps = steps
        self.minimumChange = max(1, pressureRange.span * 0.02)
    }

    var isDone: Bool { points.count == steps.count }

    func prompt() -> String {
        let step = steps[points.count]
        if points.isEmpty { return "Step 1/\(steps.count): place \(step.label) and keep it still." }
        return "Step \(points.count + 1)/\(steps.count): add \(step.label) (total "
            + NumberText.fixed(step.grams, 2) + " g) and keep still."
    }

    /// Looks at a reading; returns a message when a point was captured.
    mutating func observe(_ reading: Reading) -> String? {
        guard !isDone, !reading.contacts.isEmpty, reading.contacts.allSatisfy(\.stable) else { return nil }
        let total = reading.contacts.reduce(0.0) { $0 + Double($1.pressure) }
        if let last = points.last, Swift.abs(total - last.pressure) < minimumChange { return nil }
        let step = steps[points.count]
        points.append(CalibrationPoint(pressure: total, grams: step.grams))
        return "  captured: pressure " + NumberText.fixed(total, 0) + " for " + NumberText.fixed(step.grams, 2) + " g"
    }
}
