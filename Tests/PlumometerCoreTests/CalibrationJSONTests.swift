import Foundation
import PlumometerCore
import Testing

/// The profile codec of our own (``Calibration/init(json:)``, ``Calibration/jsonText()``) against Foundation's
/// `JSONEncoder` and `JSONDecoder`, which wrote and read every profile before it: each reads the other's files.
@Suite("Calibration profiles as JSON without Foundation")
struct CalibrationJSONTests {
    private let pad = DeviceIdentity(
        bus: 0x18,
        vendor: 0x06cb,
        product: 0xcdaa,
        version: 0x100,
        name: "SYNA \"pad\" /1"
    )
    private let range = AxisInfo(minimum: 0, maximum: 255, fuzz: 1, flat: 0, resolution: 0)

    private func sample() throws -> Calibration {
        let points = [
            CalibrationPoint(pressure: 10, grams: 0), CalibrationPoint(pressure: 30.25, grams: 5.2),
            CalibrationPoint(pressure: 50, grams: 9.7), CalibrationPoint(pressure: 70.125, grams: 15.1),
        ]
        return try Calibration.fit(points: points, device: pad, pressureRange: range)
    }

    private static func foundationText(_ calibration: Calibration, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : []
        return String(decoding: try encoder.encode(calibration), as: UTF8.self)
    }

    @Test("what we write, JSONDecoder reads back equal, and we read it back equal")
    func ourTextReadsBack() throws {
        let calibration = try sample()
        let text = try calibration.jsonText()
        #expect(try JSONDecoder().decode(Calibration.self, from: Data(text.utf8)) == calibration)
        #expect(try Calibration(json: Array(text.utf8)) == calibration)
        #expect(text.hasSuffix("}\n"))
    }

    @Test("what JSONEncoder wrote (pretty with sorted keys, or compact), we read equal")
    func foundationTextReads() throws {
        let calibration = try sample()
        for pretty in [true, false] {
            let text = try Self.foundationText(calibration, pretty: pretty)
            #expect(try Calibration(json: Array(text.utf8)) == calibration, "\(text)")
        }
    }

    @Test("our text is JSONEncoder's pretty, sorted text plus a newline")
    func sameTextAsFoundation() throws {
        let calibration = try sample()
        let ours = try calibration.jsonText()
        let theirs = try Self.foundationText(calibration, pretty: true) + "\n"
        #expect(ours == theirs, "ours:\n\(ours)\ntheirs:\n\(theirs)")
        // A `/` in a device's name is written as it is, as other JSON tools write it, not as `\/`.
        #expect(ours.contains(#""SYNA \"pad\" /1""#), "\(ours)")
    }

    @Test("names with quotes, slashes, control characters and non-ASCII survive both ways")
    func escapedNames() throws {
        var calibration = try sample()
        calibration.device.name = "a\"b\\c/d\n\t\u{1}é😀"
        let ours = try calibration.jsonText()
        #expect(try Calibration(json: Array(ours.utf8)) == calibration)
        #expect(try JSONDecoder().decode(Calibration.self, from: Data(ours.utf8)) == calibration)
        let theirs = try Self.foundationText(calibration, pretty: false)
        #expect(try Calibration(json: Array(theirs.utf8)) == calibration)
        calibration.device.name = "X"
        let escaped = try calibration.jsonText().replacingOccurrences(of: #""X""#, with: #""\ud83d\ude00\u00e9""#)
        #expect(try Calibration(json: Array(escaped.utf8)).device.name == "😀é")
    }

    @Test(
        "a profile that is not one is refused with the reason",
        arguments: [
            ("", "unexpected end"), ("{", "expected a key"), ("[]", "expected an object"), ("{} x", "after the end"),
            ("{\"slope\": 01}", "leading 0"), ("{\"device\":{}}", "missing key"), ("nul", "unexpected character"),
        ]
    )
    func refused(text: String, reason: String) {
        #expect {
            _ = try Calibration(json: Array(text.utf8))
        } throws: { error in
            (error as? CalibrationJSONError)?.description.contains(reason) == true
        }
    }

    @Test("a missing key is named, and a damaged slope is refused as decoding refused it")
    func missingKeyAndDamagedSlope() throws {
        let text = try sample().jsonText()
        let withoutSlope = text.replacingOccurrences(of: "\"slope\"", with: "\"slop\"")
        #expect {
            _ = try Calibration(json: Array(withoutSlope.utf8))
        } throws: { error in
            (error as? CalibrationJSONError)?.description == "missing key 'slope'"
        }
        var negative = try sample()
        negative.slope = -1
        let damaged = try negative.jsonText()
        #expect {
            _ = try Calibration(json: Array(damaged.utf8))
        } throws: { error in
            (error as? CalibrationJSONError)?.description.contains("slope") == true
        }
    }

    @Test("a number JSON cannot hold is refused on writing")
    func notFinite() throws {
        var calibration = try sample()
        calibration.residuals.append(.nan)
        #expect(throws: CalibrationJSONError.self) { _ = try calibration.jsonText() }
    }
}
