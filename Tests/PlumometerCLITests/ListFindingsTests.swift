import Foundation
import PlumometerTestSupport
import Testing

/// `plumometer list` shows every static finding (text and JSON), and `probe --static` on the same live device
/// gives the same verdict and findings.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct ListFindingsTests {
    @Test func listAndProbeAgreeOnTheFindings() throws {
        let list = try ListTests.run(["list", "--format", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let trackpad = try #require(devices.first { $0.string("node") == "/dev/input/event5" })
        let codes = trackpad.objects("findings").compactMap { $0.string("code") }
        #expect(codes.contains("known-force-sensor"), "\(codes)")
        #expect(trackpad.objects("findings").allSatisfy { $0.string("implication")?.isEmpty == false })
        #expect(trackpad.bool("semi_mt") == false)

        let text = try ListTests.run(["list"])
        #expect(text.stdout.contains("  findings:\n"))
        #expect(text.stdout.contains("    - known-force-sensor: "))

        let probe = try ListTests.run(["probe", "-d", "/dev/input/event5", "--static", "-f", "json"])
        #expect(probe.status == 0, "\(probe.stderr)")
        let report = try #require(try CLI.jsonObjects(probe).first)
        #expect(report.string("verdict") == trackpad.string("sensing"))
        #expect(report.objects("findings").compactMap { $0.string("code") } == codes)
    }
}
