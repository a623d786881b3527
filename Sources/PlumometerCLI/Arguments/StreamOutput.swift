import PlumometerSession

/// Where `stream` writes its readings and when it stops writing: `-o FILE` (appended to; stdout without it),
/// `--max-size SIZE` and `--keep N` (rotation of that FILE), `--count N` (frames), and `--timestamps`
/// (``OutputOptions``).
///
/// A value made from the command line that checks itself: rotation needs a FILE to rotate, and `--keep` needs
/// `--max-size`.
struct StreamOutput: Sendable {
    /// The settings of the lines written.
    var settings: OutputSettings

    /// The group's declarations (`--timestamps` is ``OutputOptions``', shared with replay and demo).
    enum Options {
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help: "Append readings to FILE instead of writing them to stdout (created when missing; never a symlink)."
        )
        static let count = Option<Int>.wholeNumber(
            "count",
            value: "N",
            range: 1...Int(Int32.max),
            help: "Stop after N frame records."
        )
        static let maxSize = Option<Int64>(
            "max-size",
            value: "SIZE",
            help:
                "With -o FILE: once FILE reaches SIZE bytes (K, M, G: KiB, MiB, GiB) it becomes FILE.1 and a new FILE begins, so a log never fills a disk."
        ) { text throws(ValueError) in
            let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            let unit = text.last.flatMap { units[Character($0.uppercased())] }
            let digits = unit == nil ? Substring(text) : text.dropLast()
            guard let number = Int64(digits), number >= 1, number <= (1 << 50) / (unit ?? 1),
                number * (unit ?? 1) >= 4096
            else {
                throw .invalid(text, for: "max-size", expected: "a size of at least 4096 bytes, such as 64M or 500K")
            }
            return number * (unit ?? 1)
        }
        static let keep = Option<Int>.wholeNumber(
            "keep",
            value: "N",
            range: 0...100,
            help: "With --max-size: keep the N newest older files, FILE.1 to FILE.N (default 3; 0 keeps none)."
        )
    }

    /// The output `arguments` ask for.
    /// - Throws: ``UsageError`` for a value an option does not accept, `--max-size` without `-o FILE`, or `--keep`
    ///   without `--max-size`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        settings = try arguments.outputSettings()
        settings.file = try arguments.value(of: Options.output)
        settings.frameLimit = try arguments.value(of: Options.count)
        if let size = try arguments.value(of: Options.maxSize) {
            guard let file = settings.file, file != "-" else {
                throw arguments.usageError("--max-size rotates the file of -o FILE; give -o FILE (stdout is no file).")
            }
            settings.rotation = Rotation(maximumSize: size, keep: try arguments.value(of: Options.keep) ?? 3)
        } else if arguments.has(Options.keep) {
            throw arguments.usageError("--keep says how many rotated files --max-size keeps; give --max-size too.")
        }
    }
}
