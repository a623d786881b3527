import PlumometerOutput
import PlumometerSession

/// What `plot` draws and where: `-o FILE` (required: a FILE.svg, a FIFO, or `-` for standard output) and the
/// window `--from SECONDS` to `--to SECONDS` after the recording's first event.
///
/// A value made from the command line that checks itself: an SVG named for another format (x.png would open as a
/// broken image) and a window that ends before it starts are usage errors.
struct PlotRequest: Sendable {
    /// `-o FILE`: where the SVG goes; `-` is standard output.
    var destination: String
    var from: Double
    var to: Double?

    /// The group's declarations.
    enum Options {
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help: "Write the SVG to FILE (required; FILE.svg, a FIFO, or - for standard output)."
        )
        static let from = seconds("from", help: "Plot from SECONDS after the recording's first event (default 0).")
        static let to = seconds("to", help: "Plot up to SECONDS after the recording's first event (default: the end).")

        /// A time in seconds from the start, 0 to a year.
        static func seconds(_ name: String, help: String) -> Option<Double> {
            Option(name, value: "SECONDS", help: help) { text throws(ValueError) in
                guard let number = Double(text), number.isFinite, number >= 0, number <= 31_536_000 else {
                    throw .invalid(text, for: name, expected: "a number of seconds from 0 to 31536000")
                }
                return number
            }
        }
    }

    /// The request `arguments` make.
    /// - Throws: ``UsageError`` without `-o`, for an `-o` named for another format than SVG, or a `--to` before
    ///   `--from`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let destination = try arguments.value(of: Options.output) else {
            throw arguments.usageError("Name the SVG to write with -o FILE.")
        }
        // plot writes SVG only: an SVG under another name (x.png) opens as a broken image. A FIFO is written into
        // whatever its name (its reader takes the SVG; docs/reliability.md), as standard output is.
        if destination != "-", !destination.lowercased().hasSuffix(".svg"), !Runtime.current.files.isFIFO(destination) {
            let name = destination.split(separator: "/").last.map(String.init) ?? destination
            throw arguments.usageError(
                "plot writes SVG, not what '\(name.forTerminalName)' is named for: give -o FILE.svg, and convert it if "
                    + "you need another format (rsvg-convert FILE.svg -o FILE.png)."
            )
        }
        self.destination = destination
        from = try arguments.value(of: Options.from) ?? 0
        to = try arguments.value(of: Options.to)
        if let to, to < from { throw arguments.usageError("--to must not be before --from.") }
    }
}
