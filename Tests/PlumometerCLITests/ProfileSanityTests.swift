import Foundation
import PlumometerTestSupport
import Testing

/// Profiles are checked for sane values against the device's range, and their messages escape what the file holds.
struct ProfileSanityTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")

    /// A profile of the fixture's device made by `calibrate`, with `change` applied to its JSON.
    static func profile(_ change: (inout [String: Any]) -> Void) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("pad.json").path
        let made = try CLI.run(["calibrate", "--replay", recording, "--point", "0:0", "--point", "100:100", "-o", path])
        #expect(made.status == 0, "\(made.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [-1_000_000.0, -1e300])
    func anInterceptFarBelowZeroIsRefusedNamingTheFile(intercept: Double) throws {
        let path = try Self.profile { $0["intercept"] = intercept }
        for arguments in [
            ["replay", "--fast", "--profile", path, Self.recording],
            ["weigh", "--replay", Self.recording, "--profile", path],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(
                result.stderr.contains("\(path) is not a usable plumometer calibration profile"),
                "\(result.stderr)"
            )
            #expect(result.stderr.contains("Make a new one with 'plumometer calibrate'"), "\(result.stderr)")
            #expect(!result.stderr.contains("999,928"), "\(result.stderr)")
        }
    }

    /// The device name of a profile made elsewhere, with a line feed in it, is escaped as in every other message.
    @Test func aProfileForAnotherDeviceIsNamedOnOneLine() throws {
        let path = try Self.profile { object in
            var device = object["device"] as? [String: Any] ?? [:]
            device["name"] = "Other\nplumometer: fake line"
            object["device"] = device
        }
        let result = try CLI.run(["replay", "--fast", "--profile", path, Self.recording])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("does not apply to"), "\(result.stderr)")
        #expect(result.stderr.contains("Other\\x0aplumometer: fake line"), "\(result.stderr)")
        #expect(!result.stderr.contains("\nplumometer: fake line"), "\(result.stderr)")
    }
}
