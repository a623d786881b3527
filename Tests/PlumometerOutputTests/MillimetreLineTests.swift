import PlumometerCore
import Testing

@testable import PlumometerOutput

/// Positions in millimetres (`x_mm`, `y_mm`) from the position axes' minimum where the device declares a resolution,
/// the `position` of the `device` record, and CSV's `total_grams`.
@Suite struct MillimetreLineTests {
    /// A pad 120 x 80 mm at 50 units a millimetre, whose axes start below zero.
    static let pad = DeviceDescription(
        path: "/dev/input/event7",
        identity: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 0xce37, version: 0x100, name: "Pad"),
        axes: [
            .mtSlot: AxisInfo(minimum: 0, maximum: 4),
            .mtPositionX: AxisInfo(minimum: -3000, maximum: 3000, resolution: 50),
            .mtPositionY: AxisInfo(minimum: -200, maximum: 3800, resolution: 50),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255),
        ]
    )

    @Test func theDeviceRecordNamesThePositionAxesWithTheirResolution() {
        let line = JSONLinesFormatter().device(OutputTestValues.record(Self.pad)) ?? ""
        #expect(
            line.contains(
                ",\"position\":{\"x\":{\"axis\":\"ABS_MT_POSITION_X\",\"min\":-3000,\"max\":3000,\"resolution\":50},"
                    + "\"y\":{\"axis\":\"ABS_MT_POSITION_Y\",\"min\":-200,\"max\":3800,\"resolution\":50}},"
            ),
            "\(line)"
        )
    }

    @Test func framesGiveMillimetresFromTheAxisMinimumUnclamped() throws {
        let positions = try #require(PositionAxes(Self.pad))
        // (100 - -3000) / 50 = 62 mm; (-200 - -200) / 50 = 0 mm. Beyond the range: (3100 + 3000) / 50 = 122 mm.
        #expect(positions.millimetresX(100) == 62)
        #expect(positions.millimetresY(-200) == 0)
        #expect(positions.millimetresX(3100) == 122)
        #expect(positions.millimetresX(nil) == nil)
        let line =
            JSONLinesFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d", positions: positions)
            ?? ""
        #expect(line.contains("\"x\":100,\"y\":-200,\"x_mm\":62.00,\"y_mm\":0.00,\"pressure\":3000"), "\(line)")
        #expect(line.contains("\"x\":null,\"y\":null,\"x_mm\":null,\"y_mm\":null,"), "\(line)")
        let rows = CSVFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d", positions: positions)
        #expect(rows?.split(separator: "\n").first?.hasSuffix(",false,frame,,62.00,0.00,") == true, "\(rows ?? "")")
    }

    @Test func withoutAResolutionThereAreNoMillimetres() throws {
        // The force pad's position axes declare no resolution.
        let positions = try #require(PositionAxes(OutputTestValues.forcePad))
        #expect(positions.millimetresX(100) == nil)
        let line =
            JSONLinesFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d", positions: positions)
            ?? ""
        #expect(line.contains("\"x\":100,\"y\":-200,\"x_mm\":null,\"y_mm\":null,"), "\(line)")
        // A single-touch device's positions are ABS_X and ABS_Y.
        #expect(PositionAxes(OutputTestValues.plainMouse)?.xAxis == .x)
    }

    @Test func csvRowsCarryTheFramesTotal() throws {
        var reading = OutputTestValues.twoContacts
        reading.totalGrams = 3000
        let rows = try #require(CSVFormatter().frame(reading, sequence: 1, device: "d")).split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasSuffix(",3000.00") }, "\(rows)")
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 23 })
    }
}
