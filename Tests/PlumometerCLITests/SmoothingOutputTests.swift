import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `--smooth` through the binary: it filters forces, never the raw pressures the device sent.
@Suite struct SmoothingOutputTests {
    @Test(.tags(.foundInReview)) func smoothingChangesForceButNeverRawPressure() throws {
        func contacts(_ arguments: [String]) throws -> [(time: Double, id: Int, pressure: Int, force: Double)] {
            try CLI.jsonObjects(try CLI.run(arguments)).filter { $0.string("type") == "frame" }.flatMap { frame in
                frame.objects("contacts").map {
                    (frame.number("time") ?? 0, $0.int("id") ?? 0, $0.int("pressure") ?? 0, $0.number("force") ?? 0)
                }
            }
        }
        let plain = try contacts(["demo", "--fast", "-f", "jsonl"])
        let smooth = try contacts(["demo", "--fast", "-f", "jsonl", "--smooth"])
        // Every smoothed reading carries the raw pressure the device last sent for that contact.
        for reading in smooth {
            let raw = plain.last { $0.id == reading.id && $0.time <= reading.time }
            #expect(raw?.pressure == reading.pressure, "contact \(reading.id) at \(reading.time)")
        }
        let plainForces = Dictionary(plain.map { ("\($0.time)/\($0.id)", $0.force) }) { first, _ in first }
        let differing = smooth.filter { reading in
            plainForces["\(reading.time)/\(reading.id)"].map { $0 != reading.force } ?? false
        }
        #expect(differing.count > 10, "the filter changes reported forces")
    }
}
