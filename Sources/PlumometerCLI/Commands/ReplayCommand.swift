import PlumometerCore
import PlumometerRecording

/// `plumometer replay FILE`: a recording through exactly the same decoder, tracker and outputs as a live device.
enum ReplayCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let settings = try arguments.readingSettings(command: "replay")
        let pacing = try Pacing(arguments, command: "replay")
        let device = try RecordingFile.device(
            path,
            selector: arguments.value("device"),
            description: arguments.value("desc")
        )
        try play(device, settings: settings, pacing: pacing, format: arguments.value("format"))
    }

    /// Plays one recorded device (a file's, or the demo's) through a ``ReadingSession`` at `pacing`.
    static func play(_ device: RecordedDevice, settings: ReadingSettings, pacing: Pacing, format: String?) throws {
        let session = try ReadingSession(settings: settings, format: format, latestStateWins: false)
        defer { session.end() }
        let player = RecordingPlayer(device)
        let description = device.description
        let pipeline = try session.begin(
            description,
            path: description.path,
            at: player.startTime,
            from: .recording,
            tare: .atFirstFrame
        )
        let source = RecordingSource(player, pacing: pacing, into: pipeline)
        try session.run(source)
        // A malformed line ends the recording early: everything before it was played, and the error says where.
        if let failure = source.failure { throw failure }
        if session.driver.stoppedBySignal { Diagnostics.note("stopped") }
    }
}
