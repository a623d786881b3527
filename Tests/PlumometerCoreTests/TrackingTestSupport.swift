import PlumometerCore
import PlumometerTestKit

/// A frame at `seconds` of kernel time with `(id, pressure)` contacts.
func frame(_ seconds: Double, _ contacts: [(Int, Int32?)], resync: Bool = false) -> ContactFrame {
    ContactFrame(
        time: EventTime.zero.adding(seconds: seconds),
        contacts: contacts.map { ContactSample(id: $0.0, slot: $0.0 % 10, x: 100, y: 200, pressure: $0.1) },
        resync: resync
    )
}

/// Kernel time at `seconds`.
func at(_ seconds: Double) -> EventTime { EventTime.zero.adding(seconds: seconds) }

/// A 0...1000 pressure axis without resolution: 10 units are 1% of full scale.
let range1000 = AxisInfo(minimum: 0, maximum: 1000)

extension Reading {
    /// The reading of contact `id`, if it is in this reading.
    subscript(id id: Int) -> ContactReading? { contacts.first { $0.id == id } }
}

/// A frame at `seconds` with `(id, pressure, x, y)` contacts; nil positions model a device without positions.
func placed(_ seconds: Double, _ contacts: [(Int, Int32, Int32?, Int32?)]) -> ContactFrame {
    ContactFrame(
        time: EventTime.zero.adding(seconds: seconds),
        contacts: contacts.map { ContactSample(id: $0.0, slot: $0.0 % 10, x: $0.2, y: $0.3, pressure: $0.1) }
    )
}

/// A 0...6000 pressure axis at 1 unit per gram: the Apple Silicon trackpad's under Asahi (the test kit's catalogue).
let gramsRange = DeviceCatalogue.appleSiliconTrackpad.axes[.mtPressure]!
