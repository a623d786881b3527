import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// One contact of a probe `frame` line.
struct ProbeContact: Equatable, CustomStringConvertible {
    var id: Int
    var slot: Int?
    var x: Int32?
    var y: Int32?
    var pressure: Int32?

    var description: String {
        func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "-" }
        return "id=\(id) slot=\(text(slot)) x=\(text(x)) y=\(text(y)) p=\(text(pressure))"
    }
}

/// One `frame` (or `initial`) line of the bridge probe.
struct ProbeFrame: Equatable {
    var time: Double
    var resync: Bool
    var contacts: [ProbeContact]
}

/// The probe's output, parsed.
struct ProbeOutput {
    var result: ProcessResult
    var lines: [String]

    var initial: ProbeFrame? { lines.first { $0.hasPrefix("initial ") }.flatMap(Self.parseFrame) }
    var frames: [ProbeFrame] { lines.filter { $0.hasPrefix("frame ") }.compactMap(Self.parseFrame) }
    var deviceLine: String? { lines.first { $0.hasPrefix("device ") } }
    var errorLine: String? { lines.first { $0.hasPrefix("error ") } }
    func lines(startingWith prefix: String) -> [String] { lines.filter { $0.hasPrefix(prefix) } }

    static func parseFrame(_ line: String) -> ProbeFrame? {
        guard !line.hasSuffix(" none") else { return nil }
        var fields: [String: String] = [:]
        let head = line.split(separator: "[", maxSplits: 1).first.map(String.init) ?? line
        for token in head.split(separator: " ") {
            let parts = token.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        var contacts: [ProbeContact] = []
        for chunk in line.split(separator: "[").dropFirst() {
            var values: [String: String] = [:]
            for token in chunk.replacingOccurrences(of: "]", with: "").split(separator: " ") {
                let parts = token.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
            }
            guard let id = values["id"].flatMap({ Int($0) }) else { return nil }
            contacts.append(
                ProbeContact(
                    id: id,
                    slot: values["slot"].flatMap { Int($0) },
                    x: values["x"].flatMap { Int32($0) },
                    y: values["y"].flatMap { Int32($0) },
                    pressure: values["p"].flatMap { Int32($0) }
                )
            )
        }
        guard let time = fields["time"].flatMap(Double.init), let resync = fields["resync"] else { return nil }
        return ProbeFrame(time: time, resync: resync == "1", contacts: contacts)
    }
}

enum BridgeHarness {
    /// Whether the umockdev tests can run: umockdev installed and the probe built.
    static var canRun: Bool { Umockdev.isAvailable && BuiltProducts.url(named: "plumometer-bridge-probe") != nil }

    static var probe: String { BuiltProducts.url(named: "plumometer-bridge-probe")?.path ?? "plumometer-bridge-probe" }

    /// A device description from `Tests/Fixtures/Devices`.
    static func device(_ name: String) throws -> DeviceDescription {
        try EmulatedDevice.fixture(name)
    }

    /// An events script from `Tests/Fixtures/Events`.
    static func events(_ name: String) -> URL {
        Fixtures.projectFixtures.appendingPathComponent("Events/\(name)")
    }

    /// Runs the probe's `read` on the emulated device, replaying `events` (each test stops it with `--max-frames`).
    static func read(
        _ device: UmockdevDevice,
        events: URL?,
        arguments: [String] = [],
        timeout: TimeInterval = 20
    ) throws -> ProbeOutput {
        let emulated = try EmulatedDevice(device, label: "bridge")
        defer { try? FileManager.default.removeItem(at: emulated.directory) }
        // Through a FIFO in whole events, at their time stamps (umockdev's own replay, a pty, can tear a burst).
        let result = try emulated.runFed(
            probe,
            ["read", device.node] + arguments,
            events: events,
            hold: 10,
            timeout: timeout
        )
        return ProbeOutput(result: result, lines: result.stdoutLines)
    }
}
