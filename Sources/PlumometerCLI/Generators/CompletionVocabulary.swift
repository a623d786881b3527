import PlumometerCore

/// What the completion scripts offer, taken from the command tables so that no script can miss an option.
enum CompletionVocabulary {
    /// Every command's table, in the overview's order.
    static var commands: [CommandSpec] { CommandRegistry.specs }

    /// The command a line runs when it starts with an option.
    static var defaultCommand: CommandSpec { CommandRegistry.defaultCommand.spec }

    /// The options only the first word can be: `-h, --help` (the overview) and `-V, --version`.
    static let topLevelOptions: [OptionSpec] = [
        Flag("help", short: "h", help: "Show help; 'plumometer COMMAND --help' for a command's options.").spec,
        Flag("version", short: "V", help: "Show the version.").spec,
    ]

    /// `-d`, `--device`: every spelling of `option`.
    static func spellings(_ option: OptionSpec) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }

    /// Every spelling of every option of `command`.
    static func optionWords(_ command: CommandSpec) -> [String] { command.options.flatMap(spellings) }

    /// The fixed words a value can be, or nil when the value is open (files, devices, free text).
    static func words(_ completion: ValueCompletion) -> [String]? {
        switch completion {
        case .choices(let words): words
        case .referenceWeight: ReferenceWeight.all.map(\.name)
        case .command: commands.map(\.name)
        case .text, .file, .deviceNode: nil
        }
    }

    /// The first sentence of `help`, without its full stop: short enough for a completion menu.
    static func brief(_ help: String) -> String {
        var text = help
        if let end = text.firstRange(of: ". ") { text = String(text[..<end.lowerBound]) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
