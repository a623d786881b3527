/// The result of parsing one command line against a ``CommandSpec``, read through typed options.
///
/// A command reads what it declared: `arguments.flag(Options.grab)`, `try arguments.value(of: Options.format)`.
/// Reading an option the command does not declare is a bug in plumometer and stops the program.
struct ParsedArguments: Sendable {
    /// The command that was parsed; its name goes into every usage error.
    let command: CommandSpec
    private var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    init(command: CommandSpec) { self.command = command }

    mutating func add(_ option: OptionSpec, value: String) { values[option.name, default: []].append(value) }
    mutating func addPositional(_ value: String) { positionals.append(value) }

    /// The text last given for `option`, if any (the parser checks repeats).
    func text(_ option: OptionSpec) -> String? { values[option.name]?.last }

    /// Whether `flag` was given.
    func flag(_ flag: Flag) -> Bool { given(flag) }

    /// Whether `option` was given, without converting its value.
    func has<Value>(_ option: Option<Value>) -> Bool { given(option) }

    /// The value of `option`, or nil when it was not given.
    /// - Throws: ``UsageError`` when the value given is not one the option accepts.
    func value<Value>(of option: Option<Value>) throws(UsageError) -> Value? {
        guard given(option), let text = values[option.spec.name]?.last else { return nil }
        return try convert(text, option)
    }

    /// Every value of a repeatable `option`, in the order given.
    /// - Throws: ``UsageError`` for the first value the option does not accept.
    func values<Value>(of option: Option<Value>) throws(UsageError) -> [Value] {
        guard given(option) else { return [] }
        var result: [Value] = []
        for text in values[option.spec.name] ?? [] { result.append(try convert(text, option)) }
        return result
    }

    /// Checks every value given, in the order the command's table lists the options, before the command opens
    /// anything: a value an option does not accept is a usage error (exit 2) whatever the command would have done
    /// first (`stream --duration -1` used to open the device and write a `device` record before refusing it).
    /// - Throws: ``UsageError`` for the first value an option does not accept.
    func checkValues() throws(UsageError) {
        for option in command.options {
            guard let check = command.valueChecks[option.name] else { continue }
            for text in values[option.name] ?? [] {
                do {
                    try check(text)
                } catch {
                    throw usageError(error.message)
                }
            }
        }
    }

    /// Refuses two options given together that the command's table declares exclusive (``Exclusion``), in the order
    /// it lists them; run after ``checkValues()``, so that a value an option does not accept is named first.
    /// - Throws: ``UsageError`` with the exclusion's sentence.
    func checkExclusions() throws(UsageError) {
        for exclusion in command.exclusions where values[exclusion.first.name] != nil {
            if values[exclusion.second.name] != nil { throw usageError(exclusion.message) }
        }
    }

    /// A usage error of the command that was parsed (`Usage: plumometer COMMAND --help` follows it).
    func usageError(_ message: String) -> UsageError { UsageError(message: message, command: command.name) }

    private func given(_ option: any OptionDeclaration) -> Bool {
        precondition(command.declares(option), "'\(command.name)' reads --\(option.spec.name) but does not declare it")
        return values[option.spec.name] != nil
    }

    private func convert<Value>(_ text: String, _ option: Option<Value>) throws(UsageError) -> Value {
        do {
            return try option.convert(text)
        } catch {
            throw usageError(error.message)
        }
    }
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
/// Accepts `--name value`, `--name=value`, `-x value`, getopt bundles (`-qa`, `-fjson`), and `--` to end options.
/// Unknown options and values outside an option's choices throw a ``UsageError`` that suggests the closest name.
func parse(_ arguments: [String], as spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments(command: spec)
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
                throw result.usageError(message)
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
                    throw result.usageError(message)
                }
                position += 1
                if letterOption.isFlag && position < letters.count {
                    result.add(letterOption, value: "")
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
            if inlineValue != nil { throw result.usageError("Option '--\(option.name)' takes no value.") }
            result.add(option, value: "")
            continue
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if index < arguments.count {
            value = arguments[index]
            index += 1
        } else {
            throw result.usageError("Option '--\(option.name)' needs a value (\(option.value ?? "VALUE")).")
        }
        if let choices = option.choices, !choices.contains(value) {
            var message =
                "'\(value)' is not a valid value for '--\(option.name)'; choose one of "
                + choices.joined(separator: ", ") + "."
            if let guess = closestMatch(to: value, among: choices) { message += " Did you mean '\(guess)'?" }
            throw result.usageError(message)
        }
        if !option.repeatable, let previous = result.text(option), previous != value {
            throw result.usageError("Option '--\(option.name)' was given twice.")
        }
        result.add(option, value: value)
    }
    // `COMMAND --help` is always valid, whatever else is missing.
    if result.flag(.help) { return result }
    let required = spec.positionals.filter(\.required)
    if result.positionals.count < required.count {
        let missing = required[result.positionals.count]
        throw result.usageError("Missing \(missing.name): \(missing.help)")
    }
    if result.positionals.count > spec.positionals.count {
        throw result.usageError("Unexpected argument '\(result.positionals[spec.positionals.count])'.")
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
