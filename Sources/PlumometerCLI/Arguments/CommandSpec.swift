/// A command of the tool: its table (``spec``) and what it does with a parsed command line (``run(_:)``).
///
/// Each command declares itself in its own file; ``CommandRegistry`` lists them, and dispatch, help, the manual
/// page and the shell completions all read the same tables.
protocol Command: SendableMetatype {
    /// The command's name, options, arguments, help and examples.
    static var spec: CommandSpec { get }
    /// Does the command's work.
    /// - Parameter arguments: the command line, parsed against ``spec``.
    /// - Throws: a ``UsageError`` for a bad command line (exit 2); anything else is a runtime failure (exit 1).
    static func run(_ arguments: ParsedArguments) throws
}

/// A positional argument of a command.
struct PositionalSpec: Sendable, Equatable {
    let name: String
    let help: String
    let required: Bool
    /// What the argument is, for completions.
    let completion: ValueCompletion

    init(name: String, help: String, required: Bool, completion: ValueCompletion = .text) {
        self.name = name
        self.help = help
        self.required = required
        self.completion = completion
    }
}

/// A command's table: its options, positionals and help text.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Every option, in the order help lists them; `-h, --help` is always last.
    let options: [OptionSpec]
    let positionals: [PositionalSpec]
    /// Extra help paragraphs printed after the options.
    let discussion: String
    let examples: [String]
    /// How each option that takes a value checks it, by the option's name (``ParsedArguments/checkValues()``).
    let valueChecks: [String: @Sendable (String) throws(ValueError) -> Void]
    /// The pairs of options that may not be given together (``ParsedArguments/checkExclusions()``).
    let exclusions: [Exclusion]

    init(
        name: String,
        summary: String,
        options: [any OptionDeclaration],
        exclusions: [Exclusion] = [],
        positionals: [PositionalSpec] = [],
        discussion: String = "",
        examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.options = options.map(\.spec) + [Flag.help.spec]
        for exclusion in exclusions {
            precondition(
                self.options.contains(exclusion.first) && self.options.contains(exclusion.second),
                "'\(name)' excludes --\(exclusion.first.name) with --\(exclusion.second.name) but lacks one of them"
            )
        }
        self.exclusions = exclusions
        self.positionals = positionals
        self.discussion = discussion
        self.examples = examples
        var checks: [String: @Sendable (String) throws(ValueError) -> Void] = [:]
        for option in options {
            if let check = option.check { checks[option.spec.name] = check }
        }
        valueChecks = checks
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }

    /// Whether `option` is one of this command's options (the very same entry, not only the same name).
    func declares(_ option: any OptionDeclaration) -> Bool { options.contains(option.spec) }

    /// `plumometer replay FILE [--format text|jsonl|csv] ...`
    var usage: String {
        var parts = ["plumometer", name]
        for positional in positionals {
            parts.append(positional.required ? positional.name : "[\(positional.name)]")
        }
        for option in options where option != Flag.help.spec {
            parts.append("[\(option.synopsis)]")
        }
        return parts.joined(separator: " ")
    }
}

/// Two options that a command line may not give together (`--profile` and `--no-profile`): the parser refuses the
/// pair as a usage error (exit 2) before the command runs, and help lists the pair.
struct Exclusion: Sendable {
    let first: OptionSpec
    let second: OptionSpec
    /// The whole sentence of the usage error.
    let message: String

    /// `first` and `second` exclude each other; the error says `message`, by default `Give either --first or
    /// --second, not both.`
    init(_ first: any OptionDeclaration, _ second: any OptionDeclaration, message: String? = nil) {
        self.first = first.spec
        self.second = second.spec
        self.message = message ?? "Give either --\(first.spec.name) or --\(second.spec.name), not both."
    }
}
