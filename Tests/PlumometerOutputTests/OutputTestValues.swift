import PlumometerCore
import PlumometerOutput

/// Hand-built devices and readings for the golden lines: every value is written out, so an expected line can be
/// checked against them by eye.
enum OutputTestValues {
    /// A 16-slot force pad whose pressure axis says 1 unit per gram (the Apple Force Touch trackpad's shape).
    static let forcePad = DeviceDescription(
        path: "/dev/input/event7",
        identity: DeviceIdentity(bus: 0x1c, vendor: 0x05ac, product: 0x0342, version: 1, name: "Force Pad"),
        axes: [
            .mtSlot: AxisInfo(minimum: 0, maximum: 15),
            .mtPositionX: AxisInfo(minimum: -3678, maximum: 3934),
            .mtPositionY: AxisInfo(minimum: -2479, maximum: 2586),
            .mtPressure: AxisInfo(minimum: 0, maximum: 6000, resolution: 1),
        ]
    )

    /// A protocol A touchscreen whose pressure axis is contact size, without a resolution.
    static let anonymousScreen = DeviceDescription(
        path: "/dev/input/event3",
        identity: DeviceIdentity(bus: 0x18, vendor: 0x04f3, product: 0x2a1c, version: 0x100, name: "Screen"),
        axes: [
            .mtPositionX: AxisInfo(minimum: 0, maximum: 4095),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 4095),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255),
        ]
    )

    /// A single-touch device with no pressure axis at all.
    static let plainMouse = DeviceDescription(
        path: "/dev/input/event2",
        identity: DeviceIdentity(bus: 0x3, vendor: 0x46d, product: 0xc52b, version: 0x111, name: "Touch Mouse"),
        axes: [.x: AxisInfo(minimum: 0, maximum: 1000), .y: AxisInfo(minimum: 0, maximum: 1000)]
    )

    static let forceClassification = DeviceClassification(
        sensing: .forceWithUnits,
        reason: "Its pressure axis is a force sensor with a resolution.",
        pressureAxis: .mtPressure
    )

    /// The record of `description` at 1350451575.023449 s.
    static func record(
        _ description: DeviceDescription = forcePad,
        path: String? = nil,
        classification: DeviceClassification = forceClassification,
        grams: DeviceRecord.GramsSource = .resolution(1)
    ) -> DeviceRecord {
        DeviceRecord(
            path: path ?? description.path,
            description: description,
            time: EventTime(microseconds: 1_350_451_575_023_449),
            classification: classification,
            gramsSource: grams
        )
    }

    /// A contact with every field given; the numbers carry more places than the formats print, to show rounding.
    static func contact(
        _ id: Int,
        slot: Int? = nil,
        x: Int32? = nil,
        y: Int32? = nil,
        pressure: Int32,
        force: Double,
        ratio: Double,
        share: Double,
        rank: Int,
        heaviest: Bool = false,
        stable: Bool = false,
        saturated: Bool = false,
        grams: Double? = nil
    ) -> ContactReading {
        ContactReading(
            id: id,
            slot: slot,
            x: x,
            y: y,
            pressure: pressure,
            force: force,
            percent: force * 100,
            ratio: ratio,
            share: share,
            rank: rank,
            heaviest: heaviest,
            stable: stable,
            saturated: saturated,
            grams: grams
        )
    }

    /// Two contacts at 12.5 s: #17 the heaviest, stable, 3000.004 g; #18 half of it, saturated, no position, no
    /// grams.
    static let twoContacts = Reading(
        time: EventTime(microseconds: 12_500_000),
        contacts: [
            contact(
                17,
                slot: 0,
                x: 100,
                y: -200,
                pressure: 3000,
                force: 0.500_049,
                ratio: 1,
                share: 0.666_666,
                rank: 1,
                heaviest: true,
                stable: true,
                grams: 3000.004
            ),
            contact(18, slot: 1, pressure: 1500, force: 0.25, ratio: 0.5, share: 0.333_333, rank: 2, saturated: true),
        ]
    )

    /// A frame after a `SYN_DROPPED` with nothing on the surface.
    static let emptyResync = Reading(time: EventTime(microseconds: 12_600_001), contacts: [], resync: true)
}
