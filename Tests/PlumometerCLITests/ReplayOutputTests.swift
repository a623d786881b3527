import Foundation
import PlumometerTestSupport
import Testing

/// `plumometer replay`: the schema, the numbers, the formats, and the options that shape readings.
@Suite struct ReplayOutputTests {
    let twoPlums = CLI.fixture("magic-trackpad-2.two-plums.evemu")
    let gramsPad = CLI.fixture("grams-pad.one-object.evemu")

    @Test func jsonLinesSchemaVersion1() throws {
        let result = try CLI.run(["replay", "--fast", "--format", "jsonl", "--quiet", twoPlums])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let records = try CLI.jsonObjects(result)
        let device = try #require(records.first)
        #expect(device.string("type") == "device")
        #expect(device.string("device") == twoPlums)
        #expect(device.string("name") == "Apple Inc. Magic Trackpad 2")
        #expect(device.string("id") == "0005:05ac:0265:0111")
        #expect(device.int("slots") == 16)
        let pressure = try #require(device["pressure"] as? [String: Any])
        #expect(pressure.string("axis") == "ABS_MT_PRESSURE")
        #expect(pressure.int("min") == 0 && pressure.int("max") == 253 && pressure.int("resolution") == 0)
        #expect(device.bool("force_sensor") == true)
        #expect(device.int("schema") == 1)

        let frames = records.dropFirst()
        #expect(frames.count == 6)
        #expect(frames.map { $0.int("seq") } == Array(1...6))
        #expect(frames.allSatisfy { $0.string("type") == "frame" && $0.bool("resync") == false })
        let keys = [
            "id", "slot", "x", "y", "pressure", "force", "percent", "ratio", "share", "rank", "heaviest",
            "stable", "saturated", "grams", "x_mm", "y_mm",
        ]
        for frame in frames {
            for contact in frame.objects("contacts") {
                #expect(Set(contact.keys) == Set(keys))
            }
        }
        let first = frames[frames.startIndex].objects("contacts")
        #expect(first.count == 1)
        #expect(first[0].int("id") == 10 && first[0].int("slot") == 0 && first[0].int("pressure") == 100)
        #expect(first[0].number("force") == 0.3953)
        #expect(first[0].number("percent") == 39.5)
        #expect(first[0].bool("heaviest") == true && first[0].int("rank") == 1)
        #expect(first[0].isNull("grams"))

        let second = frames[frames.startIndex + 1].objects("contacts")
        #expect(second.map { $0.int("id") } == [10, 11])
        #expect(second[1].number("ratio") == 0.5)
        #expect(second[1].number("share") == 0.3333)
        #expect(second[1].int("rank") == 2 && second[1].bool("heaviest") == false)

        // Contact 11 rises from 50 to 200 while contact 10 is at 120: it ranks first at once, but the heaviest mark
        // moves only on a lead kept for 0.1 s of kernel time (docs/quantities.md), and contact 11 lifts 10 ms later.
        let fourth = frames[frames.startIndex + 3].objects("contacts")
        #expect(fourth.first { $0.int("id") == 11 }?.int("rank") == 1)
        #expect(fourth.first { $0.int("id") == 11 }?.bool("heaviest") == false)
        #expect(fourth.first { $0.int("id") == 10 }?.bool("heaviest") == true)

        // Contact 11 lifts; then the surface clears: an empty list, not a missing frame.
        #expect(frames[frames.startIndex + 4].objects("contacts").map { $0.int("id") } == [10])
        #expect(frames.last?.objects("contacts").isEmpty == true)
    }

    @Test func csvHasTheDocumentedHeaderAndOneRowPerContact() throws {
        let result = try CLI.run(["replay", "--fast", "--format", "csv", twoPlums])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(
            lines.first
                == "time,seq,device,id,slot,x,y,pressure,force,percent,ratio,share,rank,heaviest,stable,saturated,grams,"
                + "resync,type,name,x_mm,y_mm,total_grams"
        )
        // The device row, then frames of 1, 2, 2, 2, 1 and 0 contacts; the empty frame is one row with empty
        // contact columns.
        #expect(lines.count == 1 + 1 + 1 + 2 + 2 + 2 + 1 + 1)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 23 })
        #expect(lines[1].hasSuffix(",device,Apple Inc. Magic Trackpad 2,,,"))
        #expect(
            lines[2].hasPrefix(
                "1.000000,1,\(twoPlums),10,0,-1000,200,100,0.3953,39.5,1.0000,1.0000,1,true,false,false,"
            )
        )
    }

    @Test func textMarksTheHeaviestAndShowsRatios() throws {
        let result = try CLI.run(["replay", "--fast", "--format", "text", twoPlums])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.first?.hasPrefix("# \(twoPlums): Apple Inc. Magic Trackpad 2") == true)
        #expect(lines.contains("1.010000  #10 39.5% *heaviest*  #11 19.8%  (0.50x)"))
        #expect(lines.last == "1.050000  (no contacts)")
    }

    @Test func maxContactsKeepsTheHeaviest() throws {
        let result = try CLI.run(["replay", "--fast", "--max-contacts", "1", "-f", "jsonl", twoPlums])
        #expect(result.status == 0)
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.allSatisfy { $0.objects("contacts").count <= 1 })
        #expect(frames[1].objects("contacts").first?.int("id") == 10)
        #expect(frames[3].objects("contacts").first?.int("id") == 11)
    }

    @Test func gramsFromTheResolutionAndStabilityOverTime() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", gramsPad])
        #expect(result.status == 0)
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.bool("force_sensor") == true)
        #expect(records.first?.string("grams_from") == "resolution")
        let contacts = records.dropFirst().flatMap { $0.objects("contacts") }
        #expect(!contacts.isEmpty)
        for contact in contacts {
            let grams = try #require(contact.number("grams"))
            let pressure = try #require(contact.number("pressure"))
            if contact.bool("stable") == true {
                // A stable contact reports its settled value: the mean since it came to rest, within 2 g.
                #expect(abs(grams - pressure) <= 2, "settled \(grams) g for raw \(pressure)")
            } else {
                #expect(grams == pressure, "resolution 1: one unit per gram")
            }
        }
        // The object rests at 419..421 for over a second: it must be reported stable before it lifts.
        #expect(contacts.contains { $0.bool("stable") == true && $0.int("pressure") == 420 })
        #expect(contacts.first?.bool("stable") == false)
    }

    @Test func intervalThrottlesToTheLatestState() throws {
        let all = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", gramsPad]))
            .filter { $0.string("type") == "frame" }
        let throttled = try CLI.jsonObjects(
            try CLI.run(["replay", "--fast", "-f", "jsonl", "--interval", "500", gramsPad])
        )
        .filter { $0.string("type") == "frame" }
        #expect(throttled.count < all.count)
        let times = throttled.compactMap { $0.number("time") }
        for (earlier, later) in zip(times, times.dropFirst().dropLast()) {
            #expect(later - earlier >= 0.5 - 1e-9)
        }
        // The latest state always gets out: the last frame (surface clear) is written.
        #expect(throttled.last?.objects("contacts").isEmpty == true)
    }

    @Test func tareAtStartZeroesWhatRests() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", "--tare", gramsPad])
        #expect(result.status == 0)
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        let first = try #require((frames.first?.objects("contacts") ?? []).first)
        #expect(first.number("grams") == 0)
        #expect(first.int("pressure") == 150, "tare never changes the raw pressure")
        let later = try #require((frames.dropFirst().first?.objects("contacts") ?? []).first)
        #expect(later.number("grams") == 150, "300 - 150 tared")
    }
}
