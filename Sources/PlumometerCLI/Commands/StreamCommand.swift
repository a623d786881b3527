import PlumometerCore
import PlumometerLinux

/// `plumometer [stream]`: the background reader. One reading per frame on stdout until a signal.
enum StreamCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings(command: "stream")
        let session = try ReadingSession(settings: settings, format: arguments.value("format"), latestStateWins: true)
        defer { session.end() }
        let target = DeviceTarget(arguments.value("device"))
        let stream = DeviceStream(target: target, grab: arguments.has("grab"), session: session)
        defer { stream.close() }
        if arguments.has("wait") {
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
