import PlumometerCore
import PlumometerPictures
import PlumometerTestKit

/// A 100 x 60 mm touchpad: 40 units per millimetre on both axes, pressure 0...1000 at 4 units per gram (250 g).
func touchpad(resolution: Int32 = 40, gramsPerUnit: Int32 = 4) -> DeviceDescription {
    DeviceCatalogue.syntheticPressurePad(resolution: resolution, unitsPerGram: gramsPerUnit)
}

/// A contact's reading for a picture test: position in millimetres on the 100 x 60 mm pad.
func contact(
    _ id: Int,
    atMM x: Double,
    _ y: Double,
    force: Double,
    grams: Double? = nil,
    rank: Int = 1,
    heaviest: Bool = false,
    stable: Bool = false
) -> ContactReading {
    ContactReading(
        id: id,
        slot: id,
        x: Int32(x * 40),
        y: Int32(y * 40),
        pressure: Int32(force * 1000),
        force: force,
        percent: force * 100,
        ratio: 1,
        share: 1,
        rank: rank,
        heaviest: heaviest,
        stable: stable,
        saturated: false,
        grams: grams
    )
}

/// Kernel time at `seconds`.
func at(_ seconds: Double) -> EventTime { EventTime.zero.adding(seconds: seconds) }

/// Three plums on the synthetic pad, through the real tracker: placed at 1, 3 and 5.5 s (72, 95 and 48 g), the
/// heaviest lifted at 8 s, a resync at 9 s, the third lifted at 10 s, the recording ending at 12 s; 100 frames a
/// second with a unit of noise, rolling a little as they land. Feeds every reading, ticks included, to `sink`.
func threePlums(_ sink: (Reading) -> Void) {
    var tracker = WeightTracker(pressureRange: touchpad().pressureRange!)
    var noise = SplitMix64(state: 42)
    let plums: [(id: Int, start: Double, end: Double, grams: Double, x: Double, y: Double)] = [
        (11, 1.0, 99, 72, 27, 34),
        (12, 3.0, 8.0, 95, 56, 22),
        (13, 5.5, 10.0, 48, 80, 42),
    ]
    for step in 0...1200 {
        let time = Double(step) / 100
        while let deadline = tracker.nextStabilityDeadline, deadline < at(time) {
            if let reading = tracker.tick(now: deadline) { sink(reading) }
        }
        var samples: [ContactSample] = []
        for (slot, plum) in plums.enumerated() where time >= plum.start && time < plum.end {
            let age = time - plum.start
            // Pressed on over 0.4 s (a plum landing, and rocking to rest), then still with a unit of noise.
            let landing = Swift.min(1, age / 0.4)
            let grams = plum.grams * landing * (1 + 0.08 * Swift.max(0, 0.6 - age))
            let jitter = Int32(noise.next() % 3) - 1
            let roll = 14 * Swift.max(0, 0.5 - age)
            samples.append(
                ContactSample(
                    id: plum.id,
                    slot: slot,
                    x: Int32((plum.x - roll) * 40),
                    y: Int32((plum.y + roll * 0.6) * 40),
                    pressure: Int32((grams * 4).rounded()) + jitter
                )
            )
        }
        sink(tracker.consume(ContactFrame(time: at(time), contacts: samples, resync: step == 900)))
    }
}
