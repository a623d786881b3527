import Foundation
import PlumometerTestSupport
import Testing

/// Files expected to be small (a profile, a device description) are read only when they are regular files within
/// their cap: an endless device, a huge sparse file or a FIFO is refused at once with the reason, where the reader
/// used to grow until the allocation aborted (SIGABRT) or wait for a writer.
@Suite struct SmallInputTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")

    static func expectRefused(
        _ arguments: [String],
        _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let started = Date()
        let result = try CLI.run(arguments, timeout: 20)
        #expect(!result.timedOut, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(Date().timeIntervalSince(started) < 10, "\(arguments) read on", sourceLocation: sourceLocation)
    }

    @Test(.tags(.foundByFaultInjection), arguments: ["/dev/zero", "/dev/urandom"])
    func anEndlessDeviceAsProfileIsRefused(device: String) throws {
        try Self.expectRefused(
            ["replay", "--fast", "--profile", device, Self.recording],
            "cannot read profile: \(device) is a character device, not a regular file"
        )
    }

    @Test(.tags(.foundByFaultInjection))
    func aHugeSparseFileAsProfileOrDescriptionIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        let sparse = directory.appendingPathComponent("sparse.json").path
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 10 << 30) == 0)
        try Self.expectRefused(
            ["replay", "--fast", "--profile", sparse, Self.recording],
            "\(sparse) is 10737418240 bytes, more than the 1048576 bytes"
        )
        let events = directory.appendingPathComponent("bare.events")
        try Data("E: 0.000000 0000 0000 0000\n".utf8).write(to: events)
        try Self.expectRefused(
            ["replay", "--fast", "--desc", sparse, events.path],
            "cannot read the device description: \(sparse) is 10737418240 bytes"
        )
        try Self.expectRefused(
            ["replay", "--fast", "--desc", "/dev/zero", events.path],
            "cannot read the device description: /dev/zero is a character device"
        )
    }
}
