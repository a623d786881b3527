import PlumometerLinux
import PlumometerSession

extension ServeCommand: Command {
    /// `serve`'s own options; the reading options (`--wait` among them) are ``ReadingOptions``', the pacing
    /// ``PacingOptions``'.
    enum Options {
        static let device = Option.inputDevice(
            help: "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device. "
                + Option.replayDeviceHelp
        )
        static let replay = Option.replayFile(
            help: "Serve a recording (evemu or libinput record) instead of a device, paced as replay plays it; its "
                + "last state stays served until stopped."
        )
        static let listen = Option<ListenAddress>(
            "listen",
            value: "HOST:PORT",
            help: "Where to listen (default 127.0.0.1:8390; port 0: any free one). HOST is an IP address, [IPv6] "
                + "or localhost. Another address than loopback lets anyone who reaches it see the readings."
        ) { text throws(ValueError) in
            guard let address = ListenAddress.parse(text) else {
                throw .invalid(
                    text,
                    for: "listen",
                    expected: "HOST:PORT, HOST an IP address, [IPv6 address] or localhost, such as 127.0.0.1:8390"
                )
            }
            return address
        }
    }

    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the readings on a local web page (the pad drawn live) and as events and JSON for programs.",
        options: [Options.device, ReadingOptions.wait, Options.replay, Options.listen] + PacingOptions.all
            + [
                ReadingOptions.interval, ReadingOptions.maxContacts, ReadingOptions.profile, ReadingOptions.noProfile,
                ReadingOptions.smooth, ReadingOptions.tare, ReadingOptions.carrier,
            ] + OutputOptions.all + [Flag.quiet],
        exclusions: [
            PacingOptions.fastOrSpeed, ReadingOptions.profileOrNone,
            Exclusion(
                ReadingOptions.wait,
                Options.replay,
                message: "--wait waits for a device to appear; a --replay FILE is read at once."
            ),
        ],
        discussion: """
            Reads a device (or --replay FILE) as stream does and serves, on http://127.0.0.1:8390/ by default: \
            GET / the page (the pad to scale, a circle per contact growing with its force, its name, percent and \
            grams, the heaviest yellow; tare, clear and carrier buttons), GET /readings Server-Sent Events (a \
            'device' event, then one 'frame' event per frame, each the JSON object of 'stream -f jsonl'), GET \
            /api/state (the device record and the latest frame as one object) and POST /api/tare, /api/clear, \
            /api/carrier (the live view's t, c, k; answered with the new state). Several programs and pages can \
            read at once; a client that stops reading is dropped, never waited for. Only loopback by default; \
            requests naming another host are refused (DNS rebinding), and a POST needs the page's own Origin. The \
            URL is said on stderr: 'plumometer: serving http://HOST:PORT/'. SIGINT and SIGTERM close every client \
            and exit 0.
            """,
        examples: [
            "plumometer serve                                   # then open http://127.0.0.1:8390/",
            "plumometer serve --wait                            # a user service: waits for the trackpad",
            "plumometer demo --save demo.evemu && plumometer serve --replay demo.evemu --listen 127.0.0.1:0",
            "curl -N http://127.0.0.1:8390/readings             # the events, from another program",
        ]
    )
}

/// `plumometer serve`: a device or a recording into a pipeline whose output is the web server's application
/// (``ServeApp``), the bridge's ``HTTPServer`` watched in the same loop as the device.
enum ServeCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings(terminalOutput: false)
        let wall = try arguments.outputSettings().wallTimestamps
        let address = try arguments.value(of: Options.listen) ?? .standard
        let replay = try arguments.value(of: Options.replay)
        let selector = try arguments.value(of: Options.device)
        let pacing = try Pacing(arguments)
        if replay == nil, arguments.has(PacingOptions.speed) || arguments.flag(PacingOptions.fast) {
            throw arguments.usageError("--speed and --fast pace a --replay FILE; give --replay FILE too.")
        }
        let app = ServeApp(address: address, wallTimestamps: wall)
        let session = try Session(output: app, settings: settings)
        app.session = session
        // The recording first: a bad FILE is an error before anything listens.
        let input = try replay.map { try RecordingFile.input($0, selector: selector, description: nil) }
        let server = try HTTPServer(address: address, handler: app, loop: session.loop)
        app.transport = server
        defer { server.stop() }
        Diagnostics.writeError("plumometer: serving " + server.address.url + "\n")
        if !address.isLoopback {
            Diagnostics.writeError(
                "plumometer: listening on \(server.address), not loopback: anyone who can reach it sees the "
                    + "readings; tare, clear and carrier are answered for this machine's clients only\n"
            )
        }
        if let input {
            let source = try session.openReadings(.recording(input, pacing: pacing))
            try session.run(
                // `unowned`: the loop keeps its work, which holds this source, until the session goes; a strong
                // reference to the session here was a cycle that outlived the run (AddressSanitizer's leak check).
                HeldSource(source) { [unowned session] in
                    try session.pipeline?.flush()
                    Diagnostics.note("the recording ended; its last state stays served until stopped (Ctrl-C)")
                }
            )
            if let failure = source.failure { throw failure }
        } else {
            let stream = DeviceStream(target: DeviceTarget(selector), grab: false, session: session)
            defer { stream.close() }
            try stream.start(wait: arguments.flag(ReadingOptions.wait))
            try session.run(stream)
        }
        if session.stoppedBySignal { Diagnostics.note("stopped") }
    }
}
