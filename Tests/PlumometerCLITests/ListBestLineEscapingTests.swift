import Foundation
import PlumometerCore
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `list`'s closing `best:` line (on stderr) names the device plumometer reads by default: a name with control characters (a
/// kernel driver's, or a uinput clone's made by anyone) is shown escaped there too, never obeyed, and stays on its
/// line.
@Suite(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct ListBestLineEscapingTests {
    @Test(.tags(.foundByFaultInjection)) func theBestLineShowsControlCharactersEscaped() throws {
        var description = DeviceCatalogue.appleSiliconTrackpad
        description.identity.name = "Two\nLines\u{1B}[2J\u{07} Pad"
        let device = try EmulatedDevice(description, node: "/dev/input/event6", label: "best-line")
        let result = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(5) + [try CLI.binary, "list"],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "\(result.stdout)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result.stderr)")
        // The best device is named on stderr (a note), after the listing on stdout.
        let best = try #require(
            result.stderr.split(separator: "\n").first { $0.contains("best:") },
            "\(result.stderr)"
        )
        #expect(best.contains("Two\\x0aLines\\x1b[2J\\x07 Pad"), "\(best)")
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("Lines") }, "\(result.stderr)")
    }
}
