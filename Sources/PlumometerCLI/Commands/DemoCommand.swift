import PlumometerDemo
import PlumometerLinux
import PlumometerRecording

/// `plumometer demo`: the bundled recording of a weighing session, so a newcomer without hardware sees real
/// output in seconds. The recording is compiled into the binary, not read from a path on disk.
enum DemoCommand {
    static func run(_ arguments: ParsedArguments) throws {
        if let path = arguments.value("save") {
            try Files.write(DemoRecording.text, to: path)
            Diagnostics.note("wrote the demo recording to \(path); replay it with 'plumometer replay \(path)'")
            return
        }
        let settings = try arguments.readingSettings(command: "demo")
        let pacing = try Pacing(arguments, command: "demo")
        let recording: Recording
        do throws(RecordingError) {
            recording = try RecordingReader.read(text: DemoRecording.text, fileName: DemoRecording.fileName)
        } catch {
            throw CLIError.runtime("the bundled demo recording is damaged: \(error.description)")
        }
        guard let device = recording.devices.first else {
            throw CLIError.runtime("the bundled demo recording describes no device.")
        }
        Diagnostics.note("replaying a recorded weighing session on '\(device.description.name)' (no hardware is read)")
        try ReplayCommand.play(device, settings: settings, pacing: pacing, format: arguments.value("format"))
    }
}
