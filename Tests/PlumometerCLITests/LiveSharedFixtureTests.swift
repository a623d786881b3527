import Foundation
import PlumometerTestSupport
import Testing

/// Every public recording of a real device in `../shared/fixtures`, replayed in the live view on a pseudo-terminal
/// read by pyte: it draws (the map when the device declares position ranges, the bars otherwise), holds its last
/// frame at the end, and q gives the terminal back.
@Suite(
    .enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"),
    .enabled(if: LiveTerminal.available, "python3-pyte is missing (scripts/install-deps.sh --test)")
)
struct LiveSharedFixtureTests {
    /// Whether the recording's device declares a position range on both axes (`ABS_MT_POSITION_X/Y`, else
    /// `ABS_X/Y`, with a maximum above the minimum), read from its evemu description: the file's own `A:` lines, or
    /// the `.desc` beside a file of events only.
    static func hasPositions(_ path: String) throws -> Bool {
        let url = URL(fileURLWithPath: path)
        var text = try String(contentsOf: url, encoding: .utf8)
        if !text.split(separator: "\n").contains(where: { $0.hasPrefix("A: ") }) {
            let directory = url.deletingLastPathComponent()
            let description = try #require(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".desc") },
                "no description for \(path)"
            )
            text = try String(contentsOf: directory.appendingPathComponent(description), encoding: .utf8)
        }
        var spans: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("A: ") {
            let fields = line.split(separator: " ")
            guard fields.count >= 4, let minimum = Int(fields[2]), let maximum = Int(fields[3]) else { continue }
            spans[String(fields[1]).lowercased()] = maximum - minimum
        }
        let span = { (multitouch: String, single: String) in spans[multitouch] ?? spans[single] ?? 0 }
        return span("35", "00") > 0 && span("36", "01") > 0
    }

    @Test(arguments: SharedFixtureReplayTests.recordings)
    func drawsHoldsTheEndAndQuits(path: String) throws {
        let run = try LiveTerminal.run(
            ["replay", "--fast", path],
            steps: ["until:end of recording", "snap", "key:q"]
        )
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(run.status == 0, "\(name)")
        try #require(run.screens.count == 2, "\(name)")
        let held = run.screens[0]
        #expect(held.alternate && held.statusLine.contains("end of recording, q to quit"), "\(name): \(held.lines)")
        if try Self.hasPositions(path) {
            #expect(held.showsMap && held.text.contains(" pad "), "\(name): the map, \(held.lines)")
        } else {
            #expect(!held.showsMap, "\(name): the bars")
            #expect(held.text.contains("%") || held.text.contains("Nothing on the surface"), "\(name): \(held.lines)")
        }
        #expect(run.last?.isRestored == true, "\(name)")
        #expect(run.seconds < 10, "\(name): \(run.seconds) s")
    }
}
