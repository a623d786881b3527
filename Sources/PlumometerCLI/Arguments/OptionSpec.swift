import PlumometerOutput

/// What a value on the command line is, so that shell completions and the manual can offer or describe it.
enum ValueCompletion: Sendable, Equatable {
    /// Free text: a number, a name, a pair; nothing to offer.
    case text
    /// One of a fixed set of words.
    case choices([String])
    /// A path to a file.
    case file
    /// An input device node, `/dev/input/eventN` (a device name is accepted too).
    case deviceNode
    /// The name of a reference weight (`us-quarter`) from ``ReferenceWeight/all``; masses like `10g` are accepted too.
    case referenceWeight
    /// The name of a plumometer command.
    case command
}

/// One command-line option: the single table entry that drives parsing, `--help`, usage lines, the manual page and
/// the shell completions.
///
/// Commands do not use it directly: they declare a typed ``Flag`` or ``Option`` and read it through
/// ``ParsedArguments``; this is what those have in common.
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `format`.
    let name: String
    /// An optional one-letter alias, e.g. `o` for `-o`.
    let short: Character?
    /// The value's placeholder (`PATH`, `MS`); nil for a flag that takes no value.
    let value: String?
    /// The allowed values, when the option takes one of a fixed set (checked while parsing).
    let choices: [String]?
    /// Whether the option may be given more than once (each value is kept).
    let repeatable: Bool
    /// One line of help.
    let help: String
    /// What the value is, for completions; nil for a flag.
    let completion: ValueCompletion?

    var isFlag: Bool { value == nil }

    /// `--format text|jsonl|csv`, `-o, --output FILE`, `--grab`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let value { text += " " + (choices?.joined(separator: "|") ?? value) }
        return text
    }
}

/// Anything a command lists among its options: a ``Flag`` or an ``Option``.
protocol OptionDeclaration: Sendable {
    /// The table entry that the parser, help, manual and completions read.
    var spec: OptionSpec { get }
    /// Checks a value given for this option without keeping it (nil for a flag, which takes none).
    var check: (@Sendable (String) throws(ValueError) -> Void)? { get }
}

extension OptionDeclaration {
    var check: (@Sendable (String) throws(ValueError) -> Void)? { nil }
}

/// An option without a value (`--grab`, `-q`), read as a `Bool` with ``ParsedArguments/flag(_:)``.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(
            name: name,
            short: short,
            value: nil,
            choices: nil,
            repeatable: false,
            help: help,
            completion: nil
        )
    }

    /// `-h, --help`, which every command has: its help, whatever else is on the line.
    static let help = Flag("help", short: "h", help: "Show help for this command and exit.")
    /// `-q, --quiet`, for every command that writes notes on stderr.
    static let quiet = Flag("quiet", short: "q", help: "Print nothing on stderr except errors.")
}

/// The reason a value given on the command line is unusable: a whole sentence, reported as a usage error of the
/// command being parsed.
struct ValueError: Error, Sendable {
    let message: String

    /// `'soon' is not a valid value for '--interval'; expected ...`.
    static func invalid(_ text: String, for name: String, expected: String) -> ValueError {
        ValueError(message: "'\(text)' is not a valid value for '--\(name)'; expected \(expected).")
    }
}

/// An option that takes a value, converted to `Value` when a command reads it with
/// ``ParsedArguments/value(of:)``.
///
/// Values are converted when read, not while parsing, so `COMMAND --help` stays valid whatever else is on the line
/// and a command checks its values in the order it needs them.
struct Option<Value>: OptionDeclaration {
    let spec: OptionSpec
    /// Turns the text given on the command line into the value.
    let convert: @Sendable (String) throws(ValueError) -> Value

    init(
        _ name: String,
        short: Character? = nil,
        value: String,
        choices: [String]? = nil,
        completion: ValueCompletion = .text,
        repeatable: Bool = false,
        help: String,
        convert: @escaping @Sendable (String) throws(ValueError) -> Value
    ) {
        spec = OptionSpec(
            name: name,
            short: short,
            value: value,
            choices: choices,
            repeatable: repeatable,
            help: help,
            completion: completion
        )
        self.convert = convert
    }

    var check: (@Sendable (String) throws(ValueError) -> Void)? {
        let convert = self.convert
        return { (text: String) throws(ValueError) in _ = try convert(text) }
    }
}

extension Option where Value == String {
    /// An option whose value is used as given: a name, a file path (`completion: .file`), a device.
    init(
        _ name: String,
        short: Character? = nil,
        value: String,
        completion: ValueCompletion = .text,
        repeatable: Bool = false,
        help: String
    ) {
        self.init(
            name,
            short: short,
            value: value,
            completion: completion,
            repeatable: repeatable,
            help: help
        ) { text throws(ValueError) in text }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    static func wholeNumber(_ name: String, value: String, range: ClosedRange<Int>, help: String) -> Option<Int> {
        Option(name, value: value, help: help) { text throws(ValueError) in
            guard let number = Int(text), range.contains(number) else {
                throw .invalid(
                    text,
                    for: name,
                    expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return number
        }
    }
}

extension Option where Value == Double {
    /// A number greater than `above` and at most `maximum`.
    ///
    /// Every number option has an upper bound, so that no value a user can type overflows a conversion later.
    static func number(
        _ name: String,
        value: String,
        above: Double = 0,
        maximum: Double,
        help: String
    ) -> Option<Double> {
        Option(name, value: value, help: help) { text throws(ValueError) in
            guard let number = Double(text), number.isFinite, number > above, number <= maximum else {
                throw .invalid(
                    text,
                    for: name,
                    expected: "a number greater than \(NumberText.trimmed(above)) and at most "
                        + NumberText.trimmed(maximum)
                )
            }
            return number
        }
    }
}

extension Option where Value: RawRepresentable & Sendable, Value.RawValue == String {
    /// One of `cases`, by raw value: the parser accepts nothing else, and help, the manual and completions list them.
    static func choice(
        _ name: String,
        short: Character? = nil,
        value: String = "FORMAT",
        cases: [Value],
        help: String
    ) -> Option<Value> {
        let words = cases.map(\.rawValue)
        return Option(name, short: short, value: value, choices: words, completion: .choices(words), help: help) {
            text throws(ValueError) in
            guard let value = Value(rawValue: text) else {
                throw ValueError(
                    message: "'\(text)' is not a valid value for '--\(name)'; choose one of "
                        + words.joined(separator: ", ") + "."
                )
            }
            return value
        }
    }
}
