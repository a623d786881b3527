import PlumometerCore
import PlumometerLinux
import PlumometerOutput

extension StreamCommand: Command {
    /// `stream`'s own options; the reading options are ``ReadingOptions``.
    enum Options {
        static let device = Option<String>(
            "device",
            short: "d",
            value: "PATH|NAME",
            completion: .deviceNode,
            help:
                "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device found."
        )
        static let grab = Flag(
            "grab",
            help:
                "Grab the device (EVIOCGRAB) so no other program sees its events. Off by default: you keep your pointer."
        )
        static let wait = Flag(
            "wait",
            help: "If no device fits yet, wait for one to appear instead of failing (background services)."
        )
    }

    static let spec = CommandSpec(
        name: "stream",
        summary: "Read a pressure-sensing device and write one reading per frame (the default command).",
        options: [Options.device, Options.grab, Options.wait] + ReadingOptions.all,
        discussion: """
            Readings go to stdout, one per frame, flushed at once; messages go to stderr. On a terminal the \
            live view draws one bar per contact (t: tare, c: clear tare, q: quit). SIGINT and SIGTERM finish the \
            current line and exit 0; SIGHUP reopens the device. When the device goes away a 'removed' record is \
            written and reading resumes when it comes back.
            """,
        examples: [
            "plumometer                                  # live view of the best device",
            "plumometer --format jsonl > readings.jsonl  # background reader",
            "plumometer -d /dev/input/event7 -f text --interval 100",
        ]
    )
}

/// `plumometer [stream]`: the background reader. One reading per frame on stdout until a signal.
enum StreamCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings()
        let session = try ReadingSession(
            settings: settings,
            format: try arguments.value(of: ReadingOptions.format)?.rawValue,
            latestStateWins: true
        )
        defer { session.end() }
        let target = DeviceTarget(try arguments.value(of: Options.device))
        let stream = DeviceStream(target: target, grab: arguments.flag(Options.grab), session: session)
        defer { stream.close() }
        if arguments.flag(Options.wait) {
            // A background reader started before its device (a Bluetooth trackpad still off at login): wait for it
            // through udev instead of failing, as it already does after an unplug.
            stream.followHotplug()
            guard stream.followsHotplug else {
                throw CLIError.runtime("--wait needs udev to announce devices, and udev cannot be reached here.")
            }
            do {
                try stream.open(path: try target.resolve())
            } catch {
                Diagnostics.note("no device to read yet (\(error)); waiting for one to appear")
            }
        } else {
            try stream.open(path: try target.resolve())
            stream.followHotplug()
        }
        // Also while waiting for a device: q quits.
        session.attachKeys()
        session.driver.onHangup = { try stream.reopen() }
        try session.run(stream)
    }
}
