import Foundation
import PlumometerTestSupport
import Testing

/// `--summary`: one summary at the end of a session, checked on recordings whose true values are known and against
/// the frames the same replay writes.
struct SummaryOptionTests {
    /// The last stdout line of `replay --fast ARGS FILE` as a JSON object, and the frames before it.
    static func summary(_ arguments: [String]) throws -> (summary: [String: Any], frames: [[String: Any]]) {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        let last = try #require(records.last)
        #expect(last.string("type") == "summary")
        #expect(records.dropLast().allSatisfy { $0.string("type") != "summary" }, "one summary, at the end")
        return (last, records.filter { $0.string("type") == "frame" })
    }

    @Test func oneObjectSettlesAtItsKnownWeight() throws {
        // compose.py: contact 3 placed at 100.00 s, pressing 420 g (1 unit per gram) give or take 1 from 100.85 s,
        // lifted at 101.48 s; the only contact, so the heaviest whenever it is down.
        let (summary, frames) = try Self.summary(
            ["replay", "--fast", "-f", "jsonl", "--summary", CLI.fixture("grams-pad.one-object.evemu")]
        )
        #expect(summary.number("start") == 100)
        #expect(summary.number("end") == 101.48)
        #expect(summary.int("frames") == frames.count)
        #expect(summary.int("resyncs") == 0)
        #expect(summary.int("skipped") == 0)
        let contacts = summary.objects("contacts")
        try #require(contacts.count == 1)
        let contact = contacts[0]
        #expect(contact.int("id") == 3)
        #expect(contact.number("placed") == 100)
        #expect(contact.number("lifted") == 101.48)
        #expect(contact.number("heaviest_seconds") == 1.48)
        let settled = try #require(contact["settled"] as? [String: Any])
        #expect(settled.string("unit") == "g")
        #expect(abs((settled.number("mean") ?? 0) - 420) <= 0.5, "\(settled)")
        #expect((settled.number("min") ?? 0) >= 419 && (settled.number("max") ?? 0) <= 421, "\(settled)")
        #expect((settled.number("sd") ?? 9) < 1)
        #expect((settled.number("stable_seconds") ?? 0) > 0.3)
    }

    @Test func withATareThePeakIsWhatTheFramesCarriedBeforeIt() throws {
        // --tare takes the object's zero when it first rests: its settled weight is then about 0 g, while the
        // frames before that carried its untared grams, and the peak is the largest of those (docs/output-format.md).
        let (summary, frames) = try Self.summary(
            ["replay", "--fast", "-f", "jsonl", "--summary", "--tare", CLI.fixture("grams-pad.one-object.evemu")]
        )
        let grams = frames.flatMap { $0.objects("contacts") }.compactMap { $0.number("grams") }
        let contact = try #require(summary.objects("contacts").first)
        let settled = try #require(contact["settled"] as? [String: Any])
        #expect(abs(settled.number("mean") ?? 99) < 1, "\(settled)")
        let peak = try #require(contact["peak"] as? [String: Any])
        #expect(peak.number("value") == grams.max(), "\(peak) \(grams)")
        #expect((peak.number("value") ?? 0) > 200)
    }

    @Test func theDemoSummaryAgreesWithItsFrames() throws {
        let (summary, frames) = try Self.summary(["demo", "--fast", "-f", "jsonl", "--summary"])
        #expect(summary.int("frames") == frames.count)
        let times = frames.compactMap { $0.number("time") }
        #expect(summary.number("start") == times.first)
        #expect(summary.number("end") == times.last)
        // Placed: the first frame with the id; lifted: the first frame without it after that; heaviest: the time
        // from each frame to the next while the contact carried the mark.
        var placed: [Int: Double] = [:]
        var lifted: [Int: Double] = [:]
        var heaviest: [Int: Double] = [:]
        var peak: [Int: Double] = [:]
        for (index, frame) in frames.enumerated() {
            let time = times[index]
            let ids = Set(frame.objects("contacts").compactMap { $0.int("id") })
            for id in ids where placed[id] == nil { placed[id] = time }
            for id in placed.keys where !ids.contains(id) && lifted[id] == nil { lifted[id] = time }
            let next = index + 1 < times.count ? times[index + 1] : time
            for contact in frame.objects("contacts") where contact.bool("heaviest") == true {
                heaviest[contact.int("id")!, default: 0] += next - time
            }
            for contact in frame.objects("contacts") {
                peak[contact.int("id")!] = max(peak[contact.int("id")!] ?? -.infinity, contact.number("grams") ?? 0)
            }
        }
        let contacts = summary.objects("contacts")
        #expect(contacts.compactMap { $0.int("id") }.sorted() == placed.keys.sorted())
        for contact in contacts {
            let id = try #require(contact.int("id"))
            #expect(contact.number("placed") == placed[id])
            #expect(contact.number("lifted") == lifted[id])
            #expect(abs((contact.number("heaviest_seconds") ?? -1) - (heaviest[id] ?? 0)) < 0.002, "#\(id)")
            // The peak: the largest grams of any frame that had it, above the settled mean (a plum set down).
            let peakRecord = try #require(contact["peak"] as? [String: Any], "\(contact)")
            #expect(peakRecord.string("unit") == "g")
            #expect(peakRecord.number("value") == peak[id], "#\(id)")
        }
        // The demo's plums weigh 58 to 85 g and every one rests still for a while.
        for contact in contacts {
            let settled = try #require(contact["settled"] as? [String: Any], "\(contact)")
            #expect((50...90).contains(settled.number("mean") ?? 0), "\(settled)")
        }
    }

    @Test func aTableInTextAndOnStderrForCSV() throws {
        let text = try CLI.run(["demo", "--fast", "-f", "text", "--summary"])
        #expect(text.status == 0)
        let lines = text.stdoutLines
        let header = try #require(lines.firstIndex { $0.hasPrefix("contact ") }, "\(lines.suffix(8))")
        #expect(lines[header + 1].contains("#417"))
        #expect(lines.last?.contains("readings, 0 resyncs, 0 skipped") == true)
        let plain = try CLI.run(["demo", "--fast", "-f", "csv"])
        let csv = try CLI.run(["demo", "--fast", "-f", "csv", "--summary"])
        #expect(csv.status == 0)
        // stdout stays one table, exactly the rows without --summary; the summary goes to stderr.
        #expect(csv.stdout == plain.stdout, "the rows are those without --summary, and nothing else")
        #expect(csv.stderr.contains("summary demo-weighing.evemu\ncontact "), "\(csv.stderr)")
        #expect(csv.stderr.contains("#417") && csv.stderr.contains("readings, 0 resyncs, 0 skipped"))
        // What a CSV reader makes of stdout: every row the header's width, `time` a number in every row.
        let check = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c",
                "import csv, sys\nrows = list(csv.DictReader(sys.stdin))\n"
                    + "assert rows and all(None not in r and float(r['time']) >= 0 for r in rows)\n"
                    + "print(len(rows), sum(1 for r in rows if r['total_grams']))",
            ],
            stdin: Data(csv.stdout.utf8),
            timeout: 30
        )
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("\(csv.stdoutLines.count - 1) "), "\(check.stdout)")
        #expect(!check.stdout.hasSuffix(" 0\n"), "the demo's grams give total_grams: \(check.stdout)")
    }

    @Test func withoutTheOptionNothingChanges() throws {
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"])
        #expect(try CLI.jsonObjects(result).allSatisfy { $0.string("type") != "summary" })
    }

    @Test(
        .enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"),
        arguments: SharedFixtureReplayTests.recordings
    )
    func everySharedRecordingHasASummary(path: String) throws {
        let (summary, frames) = try Self.summary(["replay", "--fast", "-f", "jsonl", "--summary", path])
        #expect(summary.int("frames") == frames.count, "\(path)")
        let ids = Set(frames.flatMap { $0.objects("contacts") }.compactMap { $0.int("id") })
        #expect(Set(summary.objects("contacts").compactMap { $0.int("id") }) == ids, "\(path)")
        #expect(summary.int("resyncs") == frames.filter { $0.bool("resync") == true }.count, "\(path)")
        // Every contact's peak is the largest value any frame gave it, settled or not (most of these are taps).
        var peaks: [Int: Double] = [:]
        for contact in frames.flatMap({ $0.objects("contacts") }) {
            let id = try #require(contact.int("id"))
            let value = try #require(contact.number("grams") ?? contact.number("percent"), "\(contact)")
            peaks[id] = max(peaks[id] ?? -.infinity, value)
        }
        for contact in summary.objects("contacts") {
            let peak = try #require(contact["peak"] as? [String: Any], "\(path): \(contact)")
            let id = try #require(contact.int("id"))
            // The frame's percent has 1 decimal, the summary's 2.
            #expect(abs((peak.number("value") ?? -1) - (peaks[id] ?? -2)) <= 0.051, "\(path): #\(id) \(peak)")
        }
    }
}
