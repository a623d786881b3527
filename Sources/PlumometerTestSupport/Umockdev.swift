public import Foundation
public import PlumometerCore

/// Running programs under `umockdev-run`, and the evemu event text its `-e` option replays.
public enum Umockdev {
    /// The `umockdev-run` executable, or nil when umockdev is not installed.
    public static var runner: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(directory)).appendingPathComponent("umockdev-run")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Whether tests that need umockdev can run.
    public static var isAvailable: Bool { runner != nil || Requirements.all }

    /// `umockdev-wrapper`, which runs a program with umockdev's preload library: the Python testbed drivers
    /// (`Tests/Scripts/umockdev_*.py`, `Tests/Fixtures/Faults/umockdev_unplug.py`) run under it.
    public static let wrapper = "/usr/bin/umockdev-wrapper"

    /// The Python that runs the testbed drivers and `Tests/Scripts/fifo_device.py`.
    public static let python = "/usr/bin/python3"

    /// Whether a testbed can be driven from Python: the wrapper, python3 and umockdev's GI bindings are there.
    public static var canDriveTestbeds: Bool {
        guard isAvailable, FileManager.default.isExecutableFile(atPath: wrapper),
            FileManager.default.isExecutableFile(atPath: python)
        else { return false }
        let probe = try? ProcessRunner.run(
            python,
            ["-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"],
            timeout: 20
        )
        return probe?.status == 0
    }

    /// Runs `program arguments` with the device in `files` emulated and `events` replayed into it.
    ///
    /// - Parameters:
    ///   - files: the device's `.umockdev` and `.ioctl`.
    ///   - events: an evemu events file (only `E:` lines), or nil for a device that stays silent.
    ///   - program: the program to run (absolute path).
    ///   - arguments: its arguments.
    ///   - timeout: seconds before the run is killed.
    public static func run(
        files: UmockdevFiles,
        events: URL?,
        program: String,
        arguments: [String],
        timeout: TimeInterval = 20
    ) throws -> ProcessResult {
        guard let runner else { throw CocoaError(.executableNotLoadable) }
        return try ProcessRunner.run(
            runner.path,
            files.arguments(events: events) + ["--", program] + arguments,
            timeout: timeout
        )
    }

    /// Runs `program arguments` with the device in `files` emulated and `events` written into its node through a
    /// FIFO in whole `struct input_event`s (`Tests/Scripts/fifo_device.py`), as a real evdev node delivers them.
    ///
    /// Use it rather than ``run(files:events:program:arguments:timeout:)`` for anything but a few events:
    /// `umockdev-run -e` backs the node with a pseudo-terminal, and under load a burst can reach the reader torn
    /// into partial events, which libevdev rejects ("libevdev_next_event failed ... Invalid argument").
    ///
    /// - Parameters:
    ///   - files: the device's `.umockdev` and `.ioctl`.
    ///   - events: an evemu events file (`E:` lines; other lines are ignored), or nil for a silent device.
    ///   - timed: whether the events are written at their time stamps, relative to the first, as `umockdev-run -e`
    ///     replays them (the events of one time stamp at once); otherwise as fast as the reader takes them.
    ///   - hold: seconds the program may run after the last event before it gets SIGTERM.
    ///   - program: the program to run (absolute path, or a name looked up in `PATH`).
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of the current environment.
    ///   - timeout: seconds before the whole run is killed.
    /// - Returns: the program's status (128 + N when signal N ended it) and everything it wrote.
    /// - Throws: when python3 cannot be started.
    public static func runFed(
        files: UmockdevFiles,
        events: URL?,
        timed: Bool = true,
        hold: Double = 1,
        program: String,
        arguments: [String],
        environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> ProcessResult {
        let command = fedCommand(files: files, events: events, timed: timed, hold: hold)
        return try ProcessRunner.run(
            command[0],
            Array(command.dropFirst()) + [program] + arguments,
            environment: environment,
            timeout: timeout
        )
    }

    /// `python3 Tests/Scripts/fifo_device.py` and its arguments up to and including `--`, for
    /// ``runFed(files:events:timed:hold:program:arguments:environment:timeout:)`` and for tests that put the
    /// command in a shell pipeline.
    public static func fedCommand(files: UmockdevFiles, events: URL?, timed: Bool = true, hold: Double = 1) -> [String]
    {
        var driver = [
            python, Fixtures.script("fifo_device.py").path, "--umockdev", files.device.path, "--ioctl",
            "\(files.node)=\(files.ioctl.path)", "--hold", String(hold),
        ]
        if let events { driver += ["--events", events.path] }
        if timed { driver.append("--timed") }
        return driver + ["--"]
    }

    /// The evemu `E:` lines for `events` (`E: sec.usec type code value`, type and code in hex, value in decimal).
    ///
    /// umockdev replays them in real time by their timestamps, relative to the first.
    public static func eventsText(_ events: [RawEvent]) -> String {
        events.map { event in
            let seconds = event.time.microseconds / 1_000_000
            let fraction = String(event.time.microseconds % 1_000_000)
            let micros = String(repeating: "0", count: 6 - fraction.count) + fraction
            return "E: \(seconds).\(micros) \(hex4(event.type.rawValue)) \(hex4(event.code)) \(event.value)"
        }.joined(separator: "\n") + "\n"
    }

    /// Only the `E:` lines of an evemu file: umockdev's loader warns on (and with fatal warnings, aborts at)
    /// description lines, so a combined recording must be stripped first.
    public static func eventsOnly(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { $0.hasPrefix("E:") }
            .joined(separator: "\n") + "\n"
    }

    /// A fresh temporary directory for one test's files.
    public static func temporaryDirectory(_ label: String) throws -> URL {
        try Scratch.directory(label)
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }
}
