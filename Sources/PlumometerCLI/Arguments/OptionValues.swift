/// Typed access to option values, with the usage errors a user needs when a value is wrong.
extension ParsedArguments {
    /// A non-negative whole number, or nil when the option is absent.
    func wholeNumber(_ name: String, command: String, minimum: Int = 0) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= minimum else {
            throw UsageError(
                message: "'\(text)' is not a valid value for '--\(name)'; expected a whole number of at least \(minimum).",
                command: command
            )
        }
        return number
    }

    /// A finite number greater than `above`, or nil when the option is absent.
    func number(_ name: String, command: String, above: Double = 0) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > above else {
            throw UsageError(
                message: "'\(text)' is not a valid value for '--\(name)'; expected a number greater than \(NumberText.fixed(above, 0)).",
                command: command
            )
        }
        return number
    }

    /// The settings that shape readings (stream, replay, demo).
    func readingSettings(command: String) throws(UsageError) -> ReadingSettings {
        var settings = ReadingSettings()
        if let interval = try wholeNumber("interval", command: command) { settings.interval = Int64(interval) * 1_000 }
        settings.maxContacts = try wholeNumber("max-contacts", command: command, minimum: 1)
        settings.smooth = has("smooth")
        settings.tareAtStart = has("tare")
        settings.unit = value("unit").flatMap(WeightUnit.init(rawValue:)) ?? .grams
        settings.profilePath = value("profile")
        return settings
    }
}
