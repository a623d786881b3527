import Foundation
import PlumometerTestSupport
import Testing

/// The live view's carrier key, typed on a real pseudo-terminal: `k` (or `K`) tares the one contact down as a
/// carrier, or says why it cannot, as a status; it never stops the view.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || Requirements.all,
        "util-linux script is missing"
    )
)
struct LiveCarrierKeyTests {
    @Test func theCarrierKeyIsAStatusEitherWay() throws {
        // Typed at once: the demo's first plum may or may not be down yet, so either the plum is the carrier or the
        // status says what to do (cut to the terminal's 80 columns). Upper case works too; q then quits.
        let result = try LiveViewTests.onTerminal(["demo"], keys: "Kq", environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let tared = result.stdout.contains("carrier #417 tared")
        let refused = result.stdout.contains("carrier: put exactly one contact")
        #expect(tared || refused, "\(result.stdout.suffix(600))")
        #expect(result.stdout.contains("\u{1B}[?1049l"), "the terminal is restored")
    }
}
