import Foundation
import PlumometerTestSupport
import Testing

/// `weigh` always ends with the session's summary: the table on stderr (each contact placed, lifted, settled,
/// heaviest; then the session), in both formats and also without a stable reading, never on stdout, and left out
/// with `--quiet`. Checked on recordings whose true values are known (Tests/Fixtures/CLI/compose.py).
struct WeighSummaryTests {
    /// One row of the table: times in seconds from the first reading, the settled mean (nil for `-`).
    struct Row: Equatable {
        var placed: Double
        var lifted: Double?
        var settled: Double?
        var heaviest: Double
    }

    /// The table's rows by contact id and its session line, read off stderr.
    static func table(_ stderr: String) throws -> (rows: [Int: Row], session: String) {
        let lines = stderr.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("contact ") }, "no summary table: \(stderr)")
        #expect(lines[header].split(separator: " ") == ["contact", "placed", "lifted", "settled", "heaviest"])
        var rows: [Int: Row] = [:]
        var index = header + 1
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            let cells = lines[index].split(separator: " ").map(String.init)
            let id = try #require(Int(cells[0].dropFirst()), "\(lines[index])")
            // #22   1.90 s   -   269.9 ± 0.0 g   0.5 s
            let lifted = cells[3] == "-" ? nil : Double(cells[3])
            let settledAt = lifted == nil ? 4 : 5
            let settled = cells[settledAt] == "-" ? nil : Double(cells[settledAt])
            rows[id] = Row(
                placed: try #require(Double(cells[1])),
                lifted: lifted,
                settled: settled,
                heaviest: try #require(Double(cells[cells.count - 2]))
            )
            index += 1
        }
        let session = try #require(index < lines.count ? lines[index] : nil, "no session line: \(stderr)")
        #expect(session.contains(" readings, ") && session.hasSuffix(" skipped"), "\(session)")
        return (rows, session)
    }

    /// One object pressing 420 g (± 1): the answer on stdout as before, the table after it on stderr with the one
    /// contact, placed at the start, still down, settled at 420 g, the heaviest all along.
    @Test func oneObjectSettledAtItsKnownWeight() throws {
        let result = try CLI.run(["weigh", "--replay", CLI.fixture("grams-pad.one-object.evemu")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "#3       420.0 g\ntotal    420.0 g\n")
        let (rows, session) = try Self.table(result.stderr)
        #expect(rows.count == 1)
        let row = try #require(rows[3])
        #expect(row.placed == 0 && row.lifted == nil)
        #expect(abs((row.settled ?? 0) - 420) <= 1, "\(row)")
        // The only contact held the heaviest mark the whole session (the table rounds it to 0.1 s).
        let duration = try #require(Double(session.split(separator: " ")[0]), "\(session)")
        #expect(duration > 0.5 && abs(duration - row.heaviest) <= 0.05, "\(session) \(row)")
        #expect(!result.stdout.contains("readings"), "nothing of the summary on stdout")
    }

    /// The carrier recording: the spoon (#21) tared as it rests, lifted at 1.1 s; loaded with 270 g it comes back
    /// as #22 at 1.9 s, a 100 g object (#23) joins it at 3.15 s, and both are weighed at rest before they are
    /// lifted: three rows, the spoon near zero, the load at 270 g (± 1) and the object at 100 g (± 1).
    @Test func theCarrierAndItsLoadAreBothInTheTable() throws {
        let result = try CLI.run(["weigh", "--replay", CLI.fixture("grams-pad.carrier.evemu"), "--carrier"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "#22      270.2 g  heaviest  carrier\n#23      100.5 g\ntotal    370.7 g\n")
        let (rows, _) = try Self.table(result.stderr)
        #expect(Set(rows.keys) == [21, 22, 23])
        let spoon = try #require(rows[21])
        let load = try #require(rows[22])
        #expect(spoon.placed == 0 && spoon.lifted == 1.1)
        #expect(abs(spoon.settled ?? 9) <= 0.1, "tared at its settled value: \(spoon)")
        #expect(load.placed == 1.9 && load.lifted == nil)
        #expect(abs((load.settled ?? 0) - 270) <= 1, "\(load)")
        let object = try #require(rows[23])
        #expect(object.placed == 3.15 && object.lifted == nil)
        #expect(abs((object.settled ?? 0) - 100) <= 1, "\(object)")
    }

    /// `-f jsonl`: stdout is still exactly one frame object and nothing else; the table is on stderr.
    @Test func jsonlStdoutIsStillOneFrame() throws {
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let result = try CLI.run(["weigh", "--replay", demo, "-f", "jsonl", "--tare"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.count == 1)
        #expect(records.first?.string("type") == "frame")
        #expect(result.stdout.hasPrefix("{\"type\":\"frame\"") && result.stdoutLines.count == 1)
        let (rows, _) = try Self.table(result.stderr)
        // The two plums the answer holds, each with the settled value the answer gives within the stability
        // tolerance (2 g): the table averages every stable reading, the answer is the settled value at its end.
        let contacts = try #require(records.first).objects("contacts")
        #expect(Set(rows.keys) == Set(contacts.compactMap { $0.int("id") }))
        for contact in contacts {
            let id = try #require(contact.int("id"))
            let row = try #require(rows[id])
            #expect(abs((row.settled ?? 0) - (contact.number("grams") ?? -9)) <= 2, "\(row) \(contact)")
        }
    }

    /// `--quiet` leaves the table out (and every note); the answer is unchanged.
    @Test(arguments: [["-q"], ["-q", "-f", "jsonl"], ["--quiet", "--timeout", "0.3"]])
    func quietPrintsNoTable(options: [String]) throws {
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let loud = try CLI.run(["weigh", "--replay", demo] + options.filter { $0 != "-q" && $0 != "--quiet" })
        let quiet = try CLI.run(["weigh", "--replay", demo] + options)
        #expect(quiet.status == loud.status)
        #expect(quiet.stdout == loud.stdout)
        #expect(loud.stderr.contains("contact   placed"), "\(loud.stderr)")
        #expect(!quiet.stderr.contains("contact   placed"), "\(quiet.stderr)")
        #expect(!quiet.stderr.contains(" readings, "), "\(quiet.stderr)")
    }

    /// Without a stable reading (the end of the recording, the timeout) the table still comes, before the error,
    /// which stays the last line; stdout stays empty.
    @Test func noStableReadingStillSummarizesBeforeTheError() throws {
        let ended = try CLI.run(["weigh", "--replay", CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        #expect(ended.status == 1)
        #expect(ended.stdout.isEmpty)
        let (rows, _) = try Self.table(ended.stderr)
        #expect(Set(rows.keys) == [10, 11])
        #expect(rows.values.allSatisfy { $0.settled == nil && $0.lifted != nil }, "never stable, both lifted")
        let last = ended.stderr.split(separator: "\n").last ?? ""
        #expect(last.contains("ended without a stable reading"), "\(ended.stderr)")

        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let timeout = try CLI.run(["weigh", "--replay", demo, "--timeout", "0.3", "-f", "jsonl"])
        #expect(timeout.status == 1)
        #expect(timeout.stdout.isEmpty)
        let (timedRows, session) = try Self.table(timeout.stderr)
        #expect(timedRows[417]?.settled == nil, "not yet stable within 0.3 s")
        #expect(session.hasPrefix("0.2") || session.hasPrefix("0.3"), "\(session)")
        #expect((timeout.stderr.split(separator: "\n").last ?? "").contains("no stable reading"))
    }
}
