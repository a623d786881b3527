/// One command-line option: the single table entry that drives parsing, `--help` and usage lines.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `format`.
    let name: String
    /// An optional one-letter alias, e.g. `o` for `-o`.
    let short: Character?
    /// The value's placeholder (`PATH`, `MS`); nil for a flag that takes no value.
    let value: String?
    /// The allowed values, when the option takes one of a fixed set.
    let choices: [String]?
    /// Whether the option may be given more than once (each value is kept).
    let repeatable: Bool
    /// One line of help.
    let help: String

    init(
        _ name: String,
        short: Character? = nil,
        value: String? = nil,
        choices: [String]? = nil,
        repeatable: Bool = false,
        help: String
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.choices = choices
        self.repeatable = repeatable
        self.help = help
    }

    var isFlag: Bool { value == nil }

    /// `--format text|jsonl|csv`, `-o, --output FILE`, `--grab`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let value { text += " " + (choices?.joined(separator: "|") ?? value) }
        return text
    }
}

/// A positional argument of a command.
struct PositionalSpec: Sendable {
    let name: String
    let help: String
    let required: Bool
}

/// A subcommand: its options, positionals and help text.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let options: [OptionSpec]
    let positionals: [PositionalSpec]
    /// Extra help paragraphs printed after the options.
    let discussion: String
    let examples: [String]

    init(
        name: String,
        summary: String,
        options: [OptionSpec],
        positionals: [PositionalSpec] = [],
        discussion: String = "",
        examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.options = options + [OptionSpec("help", short: "h", help: "Show help for this command and exit.")]
        self.positionals = positionals
        self.discussion = discussion
        self.examples = examples
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }

    /// `plumometer replay FILE [--format text|jsonl|csv] ...`
    var usage: String {
        var parts = ["plumometer", name]
        for positional in positionals {
            parts.append(positional.required ? positional.name : "[\(positional.name)]")
        }
        for option in options where option.name != "help" {
            parts.append("[\(option.synopsis)]")
        }
        return parts.joined(separator: " ")
    }
}

/// The result of parsing one command line against a ``CommandSpec``.
struct ParsedArguments: Sendable {
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    mutating func add(_ name: String, value: String) { values[name, default: []].append(value) }
    mutating func addPositional(_ value: String) { positionals.append(value) }

    func has(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A mistake in the command line: reported as `Error: ...` with a usage hint, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    /// The command whose usage to print, if known.
    let command: String?

    var description: String { message }
}

/// Parses `arguments` against `spec`.
///
/// Accepts `--name value`, `--name=value`, `-x value`, and `--` to end options. Unknown options and bad values
/// throw a ``UsageError`` that suggests the closest option name.
func parse(_ arguments: [String], as spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            result.addPositional(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        var inlineValue: String?
        let option: OptionSpec
        if argument.hasPrefix("--") {
            var name = String(argument.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let found = spec.option(named: name) else {
                var message = "Unknown option '--\(name)'."
                if let guess = closestMatch(to: name, among: spec.options.map(\.name)) {
                    message += " Did you mean '--\(guess)'?"
                }
                throw UsageError(message: message, command: spec.name)
            }
            option = found
        } else {
            // getopt style: `-q`, bundled flags `-qa`, and a value attached to the last letter, `-fjson`.
            let letters = Array(argument.dropFirst())
            var position = 0
            var found: OptionSpec?
            while position < letters.count {
                guard let letterOption = spec.option(short: letters[position]) else {
                    var message = "Unknown option '-\(letters[position])'"
                    message += letters.count > 1 ? " in '\(argument)'." : "."
                    if let guess = closestMatch(to: String(letters), among: spec.options.map(\.name)) {
                        message += " Did you mean '--\(guess)'?"
                    }
                    throw UsageError(message: message, command: spec.name)
                }
                position += 1
                if letterOption.isFlag && position < letters.count {
                    result.add(letterOption.name, value: "")
                    continue
                }
                if !letterOption.isFlag && position < letters.count {
                    inlineValue = String(letters[position...])
                    position = letters.count
                }
                found = letterOption
            }
            guard let found else { continue }
            option = found
        }
        if option.isFlag {
            if inlineValue != nil {
                throw UsageError(message: "Option '--\(option.name)' takes no value.", command: spec.name)
            }
            result.add(option.name, value: "")
            continue
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if index < arguments.count {
            value = arguments[index]
            index += 1
        } else {
            throw UsageError(
                message: "Option '--\(option.name)' needs a value (\(option.value ?? "VALUE")).",
                command: spec.name
            )
        }
        if let choices = option.choices, !choices.contains(value) {
            var message =
                "'\(value)' is not a valid value for '--\(option.name)'; choose one of "
                + choices.joined(separator: ", ") + "."
            if let guess = closestMatch(to: value, among: choices) { message += " Did you mean '\(guess)'?" }
            throw UsageError(message: message, command: spec.name)
        }
        if !option.repeatable && result.has(option.name) && result.value(option.name) != value {
            throw UsageError(message: "Option '--\(option.name)' was given twice.", command: spec.name)
        }
        result.add(option.name, value: value)
    }
    // `COMMAND --help` is always valid, whatever else is missing.
    if result.has("help") { return result }
    let required = spec.positionals.filter(\.required).count
    if result.positionals.count < required {
        let missing = spec.positionals.filter(\.required)[result.positionals.count]
        throw UsageError(message: "Missing \(missing.name): \(missing.help)", command: spec.name)
    }
    if result.positionals.count > spec.positionals.count {
        let extra = result.positionals[spec.positionals.count]
        throw UsageError(message: "Unexpected argument '\(extra)'.", command: spec.name)
    }
    return result
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a plausible typo.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let limit = max(2, word.count / 3)
    return best.1 <= limit ? best.0 : nil
}

/// Levenshtein distance between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
