import PlumometerCore

/// libFuzzer entry point: the contact decoder and weight tracker fed arbitrary event sequences.
///
/// Byte 0 picks the device (protocol B with 16 slots, protocol B with legacy pressure only, protocol A, single
/// touch), byte 1 its pressure range (including empty, inverted and full-`Int32` ranges) and byte 2 the smoothing.
/// The rest is read in 7-byte records: an operation, a code, a time step and a 32-bit value. Operations are raw
/// events (with codes drawn mostly from the ones the device declares), libevdev resync markers, a seed, a tick, a tare,
/// and an "all lift" sequence after which no contact may remain.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 3 else { return 0 }
    let device = FuzzDevices.device(kind: bytes[0], pressure: bytes[1])
    var configuration = TrackerConfiguration()
    switch bytes[2] % 5 {
    case 0: configuration.smoothing = .none
    case 1: configuration.smoothing = .exponential(alpha: 0.3)
    case 2: configuration.smoothing = .oneEuro(minCutoff: 1, beta: 0.007, derivativeCutoff: 1)
    case 3: configuration.smoothing = .exponential(alpha: .nan)
    default: configuration.smoothing = .oneEuro(minCutoff: .infinity, beta: .nan, derivativeCutoff: 0)
    }
    var pipeline = CheckedPipeline(device: device, configuration: configuration)
    var time = EventTime(microseconds: 1_000_000)
    var index = 3
    while index + 7 <= bytes.count {
        let op = bytes[index]
        let code = bytes[index + 1]
        let step = bytes[index + 2]
        var raw: UInt32 = 0
        for offset in (3...6).reversed() { raw = raw << 8 | UInt32(bytes[index + offset]) }
        let value = Int32(bitPattern: raw)
        index += 7
        // Mostly forward in small steps; sometimes a big jump either way, or to the ends of the clock.
        switch step {
        case 0xff: time = EventTime(microseconds: Int64(value) * 1_000_000)
        case 0xfe: time = EventTime(microseconds: Int64.max - Int64(UInt32(bitPattern: value)))
        case 0xfd: time = EventTime(microseconds: Int64.min + Int64(UInt32(bitPattern: value)))
        default: time = EventTime(microseconds: time.microseconds &+ Int64(step) * 1000)
        }
        switch op % 16 {
        case 0, 1, 2, 3, 4, 5:
            pipeline.consume(.abs(FuzzDevices.axis(code, device: device), value, at: time))
        case 6, 7:
            pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.report.rawValue, value: 0))
        case 8:
            pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.mtReport.rawValue, value: 0))
        case 9:
            pipeline.consume(.key(FuzzDevices.key(code), value & 3, at: time))
        case 10:
            // A raw SYN_DROPPED as a recording holds it, or the bridge's resync markers.
            switch code & 3 {
            case 0, 2: pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.dropped.rawValue, value: 0))
            case 1: pipeline.consume(.resyncBegan(time))
            default: pipeline.endResync(at: time)
            }
        case 11:
            pipeline.tick(now: time)
        case 12:
            pipeline.tare()
        case 13:
            allLift(&pipeline, at: time)
        case 14:
            // A seed as at open: the value's bytes give the slots' tracking ids and pressure.
            var slots: [[AbsoluteAxis: Int32]] = []
            for slot in 0..<Int32(code % 20) {
                let down: Bool = (value >> (slot % 32)) & 1 == 1
                let id: Int32 = down ? slot + (value & 0xff) : -1
                slots.append([.mtTrackingID: id, .mtPressure: value >> 8, .mtPositionX: slot * 100])
            }
            let keys: Set<KeyCode> = code & 0x80 != 0 ? [.btnTouch, .btnToolPen] : []
            pipeline.seed(
                with: DeviceState(
                    slots: slots,
                    currentSlot: Int32(code % 7),
                    axes: [.pressure: value],
                    keysDown: keys,
                    time: time
                )
            )
        default:
            // Any event type and code at all, as a hostile uinput device could send.
            let type = EventType(rawValue: UInt16(code & 0x1f))
            pipeline.consume(RawEvent(time: time, type: type, code: UInt16(value & 0x3ff), value: value >> 10))
        }
    }
    allLift(&pipeline, at: time)
    return 0
}

/// Ends every contact the way a device does when the surface clears, then checks nothing is left.
///
/// A resync the input began and never ended is ended first, as the bridge always does (with libevdev's closing
/// `SYN_REPORT`, ``CheckedPipeline/endResync(at:)``): between its markers the decoder rightly publishes nothing
/// (libevdev's synced state arrives there), so without the end no lift could ever show, and the invariant broke
/// within a few hundred runs on inputs the bridge cannot produce. The harness was wrong, not the decoder.
func allLift(_ pipeline: inout CheckedPipeline, at time: EventTime) {
    if pipeline.resyncOpen { pipeline.endResync(at: time) }
    // A report first ends a frame dropped by SYN_DROPPED, so the lift frame is a real one.
    pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.report.rawValue, value: 0))
    let device = pipeline.device
    switch device.contactProtocol {
    case .multitouchSlots:
        let minimum = device.axes[.mtSlot]!.minimum
        for slot in 0..<(device.slotCount ?? 0) {
            pipeline.consume(.abs(.mtSlot, minimum + Int32(slot), at: time))
            pipeline.consume(.abs(.mtTrackingID, -1, at: time))
        }
        pipeline.consume(.key(.btnTouch, 0, at: time))
    case .multitouchAnonymous:
        pipeline.consume(.key(.btnTouch, 0, at: time))
        pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.mtReport.rawValue, value: 0))
    case .singleTouch:
        pipeline.consume(.key(.btnTouch, 0, at: time))
        pipeline.consume(.abs(.pressure, 0, at: time))
    }
    pipeline.consume(RawEvent(time: time, type: .syn, code: SynCode.report.rawValue, value: 0))
    require(pipeline.decoder.contacts.isEmpty, "contacts left after an all-lift: \(pipeline.decoder.contacts)")
    require(pipeline.tracker.current.contacts.isEmpty, "readings left after an all-lift: \(pipeline.tracker.current)")
    require(pipeline.tracker.contactIDs.isEmpty, "tracked contacts left after an all-lift")
}

enum FuzzDevices {
    static let pressureRanges: [AxisInfo] = [
        AxisInfo(minimum: 0, maximum: 255),
        AxisInfo(minimum: 0, maximum: 6000, resolution: 1),
        AxisInfo(minimum: 0, maximum: 0),
        AxisInfo(minimum: 100, maximum: 50),
        AxisInfo(minimum: .min, maximum: .max, resolution: .max),
        AxisInfo(minimum: -10, maximum: 10, resolution: -3),
    ]

    static func device(kind: UInt8, pressure: UInt8) -> DeviceDescription {
        let range = pressureRanges[Int(pressure) % pressureRanges.count]
        let position = AxisInfo(minimum: 0, maximum: 4000)
        var axes: [AbsoluteAxis: AxisInfo] = [.x: position, .y: position]
        var keys: Set<UInt16> = [KeyCode.btnTouch.rawValue, 0x145, 0x14a, 0x14d]
        switch kind % 4 {
        case 0:
            axes[.mtSlot] = AxisInfo(minimum: 0, maximum: 15)
            axes[.mtTrackingID] = AxisInfo(minimum: 0, maximum: 65535)
            axes[.mtPositionX] = position
            axes[.mtPositionY] = position
            axes[.mtPressure] = range
            axes[.pressure] = range
        case 1:
            // Protocol B with only the legacy pressure (pointer emulation follows the oldest contact).
            axes[.mtSlot] = AxisInfo(minimum: 0, maximum: 4)
            axes[.mtTrackingID] = AxisInfo(minimum: 0, maximum: 65535)
            axes[.mtPositionX] = position
            axes[.mtPositionY] = position
            axes[.pressure] = range
        case 2:
            axes[.mtPositionX] = position
            axes[.mtPositionY] = position
            axes[.mtPressure] = range
            axes[.mtTrackingID] = AxisInfo(minimum: 0, maximum: 65535)
        default:
            axes[.pressure] = range
            keys.insert(0x140)  // BTN_TOOL_PEN
        }
        return DeviceDescription(
            path: "fuzz",
            identity: DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 1, name: "fuzz"),
            properties: [],
            codes: [.syn: [0, 2, 3], .key: keys, .abs: Set(axes.keys.map(\.rawValue))],
            axes: axes
        )
    }

    /// Mostly the device's own axes; codes 0xf0 and above are taken as raw axis numbers.
    static func axis(_ code: UInt8, device: DeviceDescription) -> AbsoluteAxis {
        if code >= 0xc0 { return AbsoluteAxis(rawValue: UInt16(code & 0x3f)) }
        let declared = device.axes.keys.sorted { $0.rawValue < $1.rawValue }
        return declared[Int(code) % declared.count]
    }

    static func key(_ code: UInt8) -> KeyCode {
        let keys: [UInt16] = [0x14a, 0x145, 0x14d, 0x140, 0x148, 0x14e, 0x110]
        return KeyCode(rawValue: code >= 0xf0 ? UInt16(code) : keys[Int(code) % keys.count])
    }
}
