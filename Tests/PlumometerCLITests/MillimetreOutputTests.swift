import Foundation
import PlumometerTestSupport
import Testing

/// Through the binary: the `device` record's `position` axes recompute every frame's `x_mm`/`y_mm`, and CSV carries
/// the same millimetres and the frame's `total_grams`.
@Suite struct MillimetreOutputTests {
    @Test func everyContactsMillimetresFollowFromTheDeviceRecord() throws {
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        let device = try #require(records.first { $0.string("type") == "device" })
        let position = try #require(device["position"] as? [String: Any])
        let x = try #require(position["x"] as? [String: Any])
        let y = try #require(position["y"] as? [String: Any])
        #expect(x.string("axis") == "ABS_MT_POSITION_X")
        let resolutionX = try #require(x.number("resolution"))
        let resolutionY = try #require(y.number("resolution"))
        #expect(resolutionX > 0 && resolutionY > 0)
        var checked = 0
        for frame in records where frame.string("type") == "frame" {
            for contact in frame.objects("contacts") {
                let expectedX = (try #require(contact.number("x")) - (x.number("min") ?? .nan)) / resolutionX
                let expectedY = (try #require(contact.number("y")) - (y.number("min") ?? .nan)) / resolutionY
                #expect(abs((contact.number("x_mm") ?? .nan) - expectedX) <= 0.005, "\(contact)")
                #expect(abs((contact.number("y_mm") ?? .nan) - expectedY) <= 0.005, "\(contact)")
                checked += 1
            }
        }
        #expect(checked > 100)
        // The live view's bars place the first plum at `x 29 y 28 mm` (README): the same millimetres.
        let first = try #require((records.first { $0.string("type") == "frame" }?.objects("contacts") ?? []).first)
        #expect((first.number("x_mm") ?? 0).rounded() == 29 && (first.number("y_mm") ?? 0).rounded() == 28)
    }

    @Test func csvHasTheMillimetresAndTheTotalOfJSON() throws {
        let json = try CLI.jsonObjects(try CLI.run(["demo", "--fast", "-f", "jsonl"])).filter {
            $0.string("type") == "frame"
        }
        let csv = try CLI.run(["demo", "--fast", "-f", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdoutLines
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        let column = { (name: String) in header.firstIndex(of: name) ?? -1 }
        #expect(Array(header.suffix(3)) == ["x_mm", "y_mm", "total_grams"])
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0[column("type")] == "frame" && !$0[column("id")].isEmpty }
        let contacts = json.flatMap { frame in
            frame.objects("contacts").map { ($0, frame.number("total_grams")) }
        }
        #expect(rows.count == contacts.count)
        for (row, (contact, total)) in zip(rows, contacts) {
            #expect(Double(row[column("x_mm")]) == contact.number("x_mm"))
            #expect(Double(row[column("y_mm")]) == contact.number("y_mm"))
            #expect(Double(row[column("total_grams")]) == total)
        }
    }
}
