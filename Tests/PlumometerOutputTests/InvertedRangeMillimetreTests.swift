import PlumometerCore
import Testing

@testable import PlumometerOutput

/// An inverted (or empty) position range has no millimetres: a damaged recording declared `ABS_MT_POSITION_X`
/// from 1224 down to 0 at 12 units a millimetre, and frames said `"x_mm":-90.78`.
struct InvertedRangeMillimetreTests {
    static func pad(x: AxisInfo) -> DeviceDescription {
        DeviceDescription(
            path: "/dev/input/event7",
            identity: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 0xce37, version: 0x100, name: "Pad"),
            axes: [
                .mtSlot: AxisInfo(minimum: 0, maximum: 4),
                .mtPositionX: x,
                .mtPositionY: AxisInfo(minimum: 0, maximum: 756, resolution: 12),
                .mtPressure: AxisInfo(minimum: 0, maximum: 255),
            ]
        )
    }

    @Test(arguments: [
        AxisInfo(minimum: 1224, maximum: 0, resolution: 12), AxisInfo(minimum: 5, maximum: 5, resolution: 12),
    ])
    func anInvertedOrEmptyRangeHasNoMillimetres(x: AxisInfo) throws {
        let positions = try #require(PositionAxes(Self.pad(x: x)))
        #expect(positions.millimetresX(135) == nil)
        #expect(positions.millimetresY(120) == 10)
        let line =
            JSONLinesFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d", positions: positions)
            ?? ""
        #expect(line.contains("\"x_mm\":null"), "\(line)")
        #expect(!line.contains("\"x_mm\":-"), "\(line)")
    }

    @Test func aRangeTheRightWayRoundStillHasThem() throws {
        let positions = try #require(PositionAxes(Self.pad(x: AxisInfo(minimum: 0, maximum: 1224, resolution: 12))))
        #expect(positions.millimetresX(120) == 10)
    }
}
