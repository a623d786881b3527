import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension WeighCommand: Command {
    /// `weigh`'s own options; the tare, profile and unit options are the reading commands' (``ReadingOptions``).
    enum Options {
        /// `-d`, `--replay`, `--desc`.
        static let selection = ReadingSelection.Options(
            device:
                "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device.",
            replay: "Weigh what a recording shows instead of a device (evemu or libinput record)."
        )
        static let format = Option<WeighFormat>.choice(
            "format",
            short: "f",
            cases: WeighFormat.allCases,
            help: "text: one line per contact and the total; jsonl: exactly one frame object (default text)."
        )
        static let objects = Option<Int>.wholeNumber(
            "objects",
            value: "N",
            range: 1...4_096,
            help: "Answer as soon as N objects (besides what was tared) are down and everything down is stable, "
                + "without waiting for the settle time."
        )
        static let timeout = Option<Double>.number(
            "timeout",
            value: "SECONDS",
            maximum: 86_400,
            help: "Give up (exit 1) when nothing rests still within SECONDS (default 30; a recording's own time)."
        )
    }

    static let spec = CommandSpec(
        name: "weigh",
        summary: "A kitchen scale in one command: wait until everything down rests still, print its weights, exit.",
        options: Options.selection.all + [
            Options.format, Options.objects, Options.timeout, ReadingOptions.tare, ReadingOptions.carrier,
            ReadingOptions.profile, ReadingOptions.noProfile, ReadingOptions.unit, Flag.quiet,
        ],
        exclusions: [ReadingOptions.profileOrNone],
        discussion: """
            Waits until every contact down is stable (its value kept within the tolerance for half a second) and \
            no new object has arrived for 3 s (the settle time, so that objects placed one by one are all \
            weighed), then prints each contact's settled weight, heaviest first (grams when known, else percent \
            of full scale), and the total in grams, and exits 0. --objects N answers instead as soon as N objects \
            are down and everything down is stable, without the settle time; a recording that ends with fewer \
            than N at rest exits 1. Something lifted before the settle time ran out leaves the scene at rest \
            just before it as the answer, and at the end of a recording no object can arrive any more: what \
            rests there is the answer. On a contact-size device (most touchpads and touchscreens) those \
            figures compare contact areas, and the answer ends with '(contact area, not weight: ...)'. With \
            --tare or --carrier the zero is taken where reading starts \
            and weigh waits for something else to rest: an object placed beside what was tared, or the carrier \
            put back loaded. -f jsonl prints exactly one `frame` object (docs/output-format.md) and nothing else \
            on stdout. Then, in either format, the session's summary goes to stderr as a table (each contact: \
            when it was placed and lifted, its settled weight, how long it was the heaviest; --quiet leaves it \
            out), also when no stable reading came. A timeout (wall clock on a device, the recording's kernel time on a recording), the end of \
            a recording, or a stop by SIGINT/SIGTERM before a stable reading exits 1. A recording shows nothing \
            after its last event: what had not rested for half a second by then is not weighed.
            """,
        examples: [
            "plumometer weigh",
            "plumometer weigh --carrier --timeout 60     # tare the spoon, lift it, fill it, put it back",
            "plumometer weigh --objects 3                # three plums: answer once all three rest",
            "plumometer demo --save demo.evemu && plumometer weigh --replay demo.evemu -f jsonl",
        ]
    )
}

/// What `weigh` prints.
enum WeighFormat: String, CaseIterable, Sendable {
    case text
    case jsonl
}

/// `plumometer weigh`: one settled reading of everything down, from a device or a recording, then exit.
enum WeighCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let profilePath = try arguments.value(of: ReadingOptions.profile)
        let ignoreSaved = arguments.flag(ReadingOptions.noProfile)
        let timeout = try arguments.value(of: Options.timeout) ?? 30
        let format = try arguments.value(of: Options.format) ?? .text
        let unit = try arguments.value(of: ReadingOptions.unit) ?? .grams
        let start = TareStart(
            tare: arguments.flag(ReadingOptions.tare),
            carrier: arguments.flag(ReadingOptions.carrier)
        )
        let wait = WeighingWait(objects: try arguments.value(of: Options.objects))

        let selection = try ReadingSelection(arguments, Options.selection)
        // A source, the consumer built once the device is known, one run.
        let session = try Session()
        var weighing: Weighing?
        let source = try session.open(
            .chosen(
                device: selection.device,
                replay: selection.replay,
                description: selection.description
            ),
            for: .reading(ProfileLookup(path: profilePath, ignoreSaved: ignoreSaved))
        ) { device in
            let made = Weighing(device, start: start, wait: wait)
            weighing = made
            // What rests on a live device at open may be the answer already: then there is nothing to read.
            return try made.begin(timeout: timeout) ? nil : made
        }
        defer { source.close() }
        // The timeout is the wall clock's on a live device (a recording's own time is the weighing's).
        let limit = source.isLive ? LimitedSource(source, duration: Int64(timeout * 1_000_000)) : nil
        try session.run(limit ?? source)
        guard let weighing else {
            // Stopped while the recording had not yet described its device and its first event: no weighing, a
            // failure like any stop before a stable reading.
            throw CLIError.runtime("stopped before the recording described its device; nothing was weighed.")
        }
        if let failure = source.failure, weighing.result == nil { throw failure }
        weighing.ended(timedOut: limit?.expired == true, stoppedBySignal: session.stoppedBySignal)
        let path = weighing.path
        let scale = weighing.scale
        guard let reading = weighing.result else {
            // The session ran its course without a stable reading: what it saw, then why that is no weighing.
            SummaryOutput.writeTable(weighing.summary(), unit: unit)
            throw weighing.whyNoReading(timeout: timeout)
        }
        switch format {
        case .jsonl:
            try StandardOutput.write(
                JSONLinesFormatter().frame(reading, sequence: 1, device: path, positions: scale) ?? ""
            )
        case .text:
            try StandardOutput.write(WeighAnswer.text(reading, unit: unit, notice: weighing.meaningNotice))
        }
        // Always, in either format, on stderr: stdout stays the answer alone (one frame object with -f jsonl).
        SummaryOutput.writeTable(weighing.summary(), unit: unit)
    }
}
