import PlumometerOutput

/// Typed access to option values, with the usage errors a user needs when a value is wrong.
extension ParsedArguments {
    /// A whole number within `minimum...maximum`, or nil when the option is absent.
    func wholeNumber(_ name: String, command: String, minimum: Int = 0, maximum: Int) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= minimum, number <= maximum else {
            throw UsageError(
                message:
                    "'\(text)' is not a valid value for '--\(name)'; expected a whole number from \(minimum) to \(maximum).",
                command: command
            )
        }
        return number
    }

    /// A number greater than `above` and at most `maximum`, or nil when the option is absent.
    ///
    /// Every number option has an upper bound, so that no value a user can type overflows a conversion later.
    func number(_ name: String, command: String, above: Double = 0, maximum: Double) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > above, number <= maximum else {
            throw UsageError(
                message: "'\(text)' is not a valid value for '--\(name)'; expected a number greater than "
                    + "\(NumberText.trimmed(above)) and at most \(NumberText.trimmed(maximum)).",
                command: command
            )
        }
        return number
    }

    /// `--speed X`: from a thousandth of real time to a million times faster.
    func speed(command: String) throws(UsageError) -> Double? {
        guard let text = value("speed") else { return nil }
        guard let speed = Double(text), speed >= 0.001, speed <= 1_000_000 else {
            throw UsageError(
                message: "'\(text)' is not a valid value for '--speed'; expected a number from 0.001 to 1000000.",
                command: command
            )
        }
        return speed
    }

    /// The settings that shape readings (stream, replay, demo).
    func readingSettings(command: String) throws(UsageError) -> ReadingSettings {
        var settings = ReadingSettings()
        // A day at most: a longer interval is a mistake, and the bound keeps the microseconds within Int64.
        if let interval = try wholeNumber("interval", command: command, maximum: 86_400_000) {
            settings.interval = Int64(interval) * 1_000
        }
        settings.maxContacts = try wholeNumber("max-contacts", command: command, minimum: 1, maximum: 4_096)
        settings.smooth = has("smooth")
        settings.tareAtStart = has("tare")
        settings.unit = value("unit").flatMap(WeightUnit.init(rawValue:)) ?? .grams
        settings.profilePath = value("profile")
        return settings
    }
}
