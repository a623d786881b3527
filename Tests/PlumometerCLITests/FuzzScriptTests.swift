import Foundation
import PlumometerTestSupport
import Testing

/// `scripts/fuzz SECONDS` takes only a positive number of seconds: libFuzzer reads `-max_total_time=0` as "no
/// limit", so `scripts/fuzz 0` started an endless campaign. Refused before anything is built.
@Suite struct FuzzScriptTests {
    @Test(.tags(.foundInReview), arguments: ["0", "00", "-1", "x", "1.5"])
    func aDurationThatIsNotAPositiveNumberIsRefused(seconds: String) throws {
        let script = try #require(Fixtures.packageRoot).appendingPathComponent("scripts/fuzz").path
        let result = try ProcessRunner.run(script, [seconds], timeout: 20)
        #expect(!result.timedOut, "scripts/fuzz \(seconds) ran on")
        #expect(result.status == 2, "\(seconds): \(result.stderr)")
        #expect(result.stderr.contains("is not a number of seconds of at least 1"), "\(result.stderr)")
    }
}
