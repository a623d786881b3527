public import Foundation
public import PlumometerCore
import PlumometerRecording

/// The devices one test emulates under umockdev, written into a fresh directory, and runs of a program that sees
/// them: through `umockdev-run` (``run(_:_:events:into:scripts:environment:timeout:)``), or with the events written into the
/// first device's node through a FIFO in whole events (``runFed(_:_:events:timed:hold:environment:timeout:)``).
///
/// Every test that reads an emulated device sets it up here: the files (``UmockdevDevice``), the events file, and
/// the command line, so that a change to how devices are emulated is made once.
public struct EmulatedDevice: Sendable {
    /// The test's own directory: the device files, the events, and whatever else the test writes.
    public let directory: URL
    /// The files of every device, in the order they were added; the first is the one ``node`` names.
    public private(set) var devices: [UmockdevFiles]

    /// The udev properties of a touchpad as udev's input_id builtin sets them.
    public static let touchpad = ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]

    /// The first device's files.
    public var files: UmockdevFiles { devices[0] }

    /// The first device's node.
    public var node: String { files.node }

    /// Emulates `description` at `node` in a fresh directory named after `label`.
    ///
    /// - Parameters:
    ///   - description: the device.
    ///   - node: its node, `/dev/input/eventN`.
    ///   - udevProperties: its udev properties (``touchpad`` unless given).
    ///   - slotValues: each slot's `ABS_MT_*` values at open (see ``UmockdevDevice/slotValues``).
    ///   - axisValues: the other axes' values at open.
    ///   - keysDown: the keys and buttons held at open.
    ///   - label: a word for the directory's name.
    /// - Throws: when the directory or the files cannot be written.
    public init(
        _ description: DeviceDescription,
        node: String = "/dev/input/event7",
        udevProperties: [String: String] = EmulatedDevice.touchpad,
        slotValues: [[AbsoluteAxis: Int32]] = [],
        axisValues: [AbsoluteAxis: Int32] = [:],
        keysDown: Set<KeyCode> = [],
        label: String = "device"
    ) throws {
        directory = try Scratch.directory(label)
        devices = []
        try add(
            description,
            node: node,
            udevProperties: udevProperties,
            slotValues: slotValues,
            axisValues: axisValues,
            keysDown: keysDown
        )
    }

    /// Emulates `device` in a fresh directory named after `label`.
    ///
    /// - Throws: when the directory or the files cannot be written.
    public init(_ device: UmockdevDevice, label: String = "device") throws {
        directory = try Scratch.directory(label)
        devices = [try device.write(to: directory)]
    }

    /// Emulates a device whose files are already written (umockdev's own record of a real device, say); the test's
    /// directory is a fresh one named after `label`.
    ///
    /// - Throws: when the directory cannot be made.
    public init(files: UmockdevFiles, label: String = "device") throws {
        directory = try Scratch.directory(label)
        devices = [files]
    }

    /// Emulates `description` at `node` too, beside the devices already here.
    ///
    /// - Returns: its files.
    /// - Throws: when the files cannot be written.
    @discardableResult
    public mutating func add(
        _ description: DeviceDescription,
        node: String,
        udevProperties: [String: String] = EmulatedDevice.touchpad,
        slotValues: [[AbsoluteAxis: Int32]] = [],
        axisValues: [AbsoluteAxis: Int32] = [:],
        keysDown: Set<KeyCode> = []
    ) throws -> UmockdevFiles {
        let device = UmockdevDevice(
            description: description,
            node: node,
            udevProperties: udevProperties,
            slotValues: slotValues,
            axisValues: axisValues,
            keysDown: keysDown
        )
        let files = try device.write(to: directory, baseName: "device\(devices.count)")
        devices.append(files)
        return files
    }

    /// The device at `node` alone (its files stay where they are), for a run that must see no other device.
    public func only(_ node: String) -> EmulatedDevice {
        var alone = self
        alone.devices = devices.filter { $0.node == node }
        precondition(!alone.devices.isEmpty, "no emulated device at \(node)")
        return alone
    }

    /// The description of a device in `Tests/Fixtures/Devices`.
    ///
    /// - Throws: when the file cannot be read or is not a device description.
    public static func fixture(_ file: String) throws -> DeviceDescription {
        let url = Fixtures.projectFixtures.appendingPathComponent("Devices/" + file)
        return try RecordingReader.readDescription(text: try String(contentsOf: url, encoding: .utf8), fileName: file)
    }

    /// Writes `events` as an evemu events file (`E:` lines) in the test's directory.
    ///
    /// - Returns: the file.
    /// - Throws: when it cannot be written.
    public func eventsFile(_ events: [RawEvent], named name: String = "events.evemu") throws -> URL {
        try write(Umockdev.eventsText(events), named: name)
    }

    /// Writes the `E:` lines of `text` (an evemu recording or events file; other lines are left out, see
    /// ``Umockdev/eventsOnly(_:)``) as an events file in the test's directory.
    ///
    /// - Returns: the file.
    /// - Throws: when it cannot be written.
    public func eventsFile(text: String, named name: String = "events.evemu") throws -> URL {
        try write(Umockdev.eventsOnly(text), named: name)
    }

    private func write(_ text: String, named name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// `umockdev-run` and its arguments up to and including `--`: the program that follows sees every device, with
    /// `events` (an events file) replayed into each of them (or only into the device at `eventsNode`) and each
    /// `scripts` entry (node, umockdev script) played into its node.
    ///
    /// - Throws: when umockdev is not installed.
    public func umockdevCommand(
        events: URL? = nil,
        into eventsNode: String? = nil,
        scripts: [(node: String, script: URL)] = []
    ) throws -> [String] {
        guard let runner = Umockdev.runner else { throw CocoaError(.executableNotLoadable) }
        let devicesArguments = devices.flatMap { files in
            files.arguments(events: eventsNode == nil || eventsNode == files.node ? events : nil)
        }
        return [runner.path] + devicesArguments + scripts.flatMap { ["-s", "\($0.node)=\($0.script.path)"] } + ["--"]
    }

    /// Runs `program arguments` under `umockdev-run` with every device emulated and `events` replayed into each.
    ///
    /// - Parameters:
    ///   - program: the program (absolute path, or a name looked up in `PATH`).
    ///   - arguments: its arguments.
    ///   - events: an events file, or nil for devices that stay silent.
    ///   - eventsNode: the one device that gets the events, or nil for every device.
    ///   - scripts: umockdev scripts to play into nodes (see ``umockdevCommand(events:into:scripts:)``).
    ///   - environment: variables to set on top of the current environment.
    ///   - timeout: seconds before the run is killed.
    /// - Returns: the program's status and everything it wrote.
    /// - Throws: when umockdev is not installed or the run cannot be started.
    public func run(
        _ program: String,
        _ arguments: [String],
        events: URL? = nil,
        into eventsNode: String? = nil,
        scripts: [(node: String, script: URL)] = [],
        environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> ProcessResult {
        let command =
            try umockdevCommand(events: events, into: eventsNode, scripts: scripts) + [program] + arguments
        return try ProcessRunner.run(command[0], Array(command.dropFirst()), environment: environment, timeout: timeout)
    }

    /// `python3 Tests/Scripts/fifo_device.py` and its arguments up to and including `--`: the program that follows
    /// sees the first device, with `events` written into its node through a FIFO in whole `struct input_event`s.
    ///
    /// - Parameters:
    ///   - events: an events file, or nil for a silent device.
    ///   - timed: whether the events are written at their time stamps (else as fast as the reader takes them).
    ///   - hold: seconds the program may run after the last event before it gets SIGTERM.
    public func fedCommand(events: URL?, timed: Bool = true, hold: Double = 1) -> [String] {
        Umockdev.fedCommand(files: files, events: events, timed: timed, hold: hold)
    }

    /// Runs `program arguments` with the first device emulated and `events` written into its node through a FIFO
    /// (see ``Umockdev/runFed(files:events:timed:hold:program:arguments:environment:timeout:)``).
    ///
    /// - Returns: the program's status (128 + N when signal N ended it) and everything it wrote.
    /// - Throws: when python3 cannot be started.
    public func runFed(
        _ program: String,
        _ arguments: [String],
        events: URL?,
        timed: Bool = true,
        hold: Double = 1,
        environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> ProcessResult {
        try Umockdev.runFed(
            files: files,
            events: events,
            timed: timed,
            hold: hold,
            program: program,
            arguments: arguments,
            environment: environment,
            timeout: timeout
        )
    }
}
