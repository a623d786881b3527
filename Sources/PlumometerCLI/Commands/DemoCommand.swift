import PlumometerDemo
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension DemoCommand: Command {
    /// `demo`'s own options; the others are ``PacingOptions`` and ``ReadingOptions``.
    enum Options {
        static let save = Option<String>(
            "save",
            value: "FILE",
            completion: .file,
            help: "Write the bundled recording to FILE (- for stdout; to look at, or to replay) and exit."
        )
    }

    static let spec = CommandSpec(
        name: "demo",
        summary: "Replay the bundled recording of a weighing session (no hardware needed).",
        options: PacingOptions.all + [Options.save] + OutputOptions.all + ReadingOptions.all,
        exclusions: [PacingOptions.fastOrSpeed, ReadingOptions.profileOrNone],
        examples: ["plumometer demo", "plumometer demo --fast -f text", "plumometer demo --save demo.evemu"]
    )
}

/// `plumometer demo`: the bundled recording of a weighing session, so a newcomer without hardware sees real
/// output in seconds. The recording is compiled into the binary, not read from a path on disk.
enum DemoCommand {
    static func run(_ arguments: ParsedArguments) throws {
        if let path = try arguments.value(of: Options.save) {
            if path == "-" {
                try StandardOutput.write(DemoRecording.text)
                return
            }
            try Runtime.current.files.write(DemoRecording.text, to: path)
            Diagnostics.note("wrote the demo recording to \(path); replay it with 'plumometer replay \(path)'")
            return
        }
        let settings = try arguments.readingSettings()
        let pacing = try Pacing(arguments)
        // Read as every recording is, as it arrives: from the bytes compiled into the binary.
        let input = RecordingInput(
            MemoryInput(Array(DemoRecording.text.utf8), name: DemoRecording.fileName),
            selector: nil
        )
        do {
            try ReplayCommand.play(
                input,
                settings: settings,
                pacing: pacing,
                format: try arguments.value(of: ReadingOptions.format),
                output: try arguments.outputSettings()
            ) { device in
                Diagnostics.note(
                    "replaying a recorded weighing session on '\(device.description.name.forTerminalName)' "
                        + "(no hardware is read)"
                )
            }
        } catch let error as RecordingError {
            throw CommandFailure("the bundled demo recording is damaged: ", cause: error)
        }
    }
}
