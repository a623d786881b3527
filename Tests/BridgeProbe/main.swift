// The bridge probe: prints what the Linux bridge reads, decoded by the core's ContactDecoder (seeded with the state
// at open, fed every input, resync markers included), for the umockdev tests.
//
//     plumometer-bridge-probe read /dev/input/eventN [--max-frames N] [--grab]
//
// Output (stdout, one line each, flushed per line; `-` means "not reported"):
//     device path=P name="N" id=BBBB:VVVV:PPPP:RRRR protocol=mt-b slots=16 monotonic=false
//     property 0x07 INPUT_PROP_PRESSUREPAD
//     axis ABS_MT_PRESSURE min=0 max=253 fuzz=0 flat=0 res=0
//     codes EV_KEY 0x110 0x14a
//     initial none | initial <frame>
//     frame time=S.UUUUUU resync=0 contacts=2 [id=5 slot=0 x=1 y=2 p=30 major=- minor=-] [...]
//     resyncs total=N
//     end reason=max-frames|signal-2|signal-15 frames=N
// On an open failure or a vanished device: `error code=gone function=F errno=N` on stdout, the sentence on stderr,
// exit status 1. A SIGINT or SIGTERM ends it with status 0.
import Glibc
import PlumometerCore
import PlumometerLinux

/// Writes `text` and a newline to `fd` at once, unbuffered, so a test that stops the probe sees every line.
func write(_ text: String, to fd: Int32 = 1) {
    var bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        offset += count
    }
}

func usage() -> Never {
    write("usage: plumometer-bridge-probe read /dev/input/eventN [--max-frames N] [--grab]", to: 2)
    exit(2)
}

func describe(_ value: Int32?) -> String { value.map { String($0) } ?? "-" }

func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
}

func line(for frame: ContactFrame) -> String {
    let micros = frame.time.microseconds % 1_000_000
    let fraction = String(micros)
    let time = "\(frame.time.microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    var text = "time=\(time) resync=\(frame.resync ? 1 : 0) contacts=\(frame.contacts.count)"
    for contact in frame.contacts {
        text += " [id=\(contact.id) slot=\(contact.slot.map { String($0) } ?? "-") x=\(describe(contact.x))"
        text += " y=\(describe(contact.y)) p=\(describe(contact.pressure)) major=\(describe(contact.touchMajor))"
        text += " minor=\(describe(contact.touchMinor))]"
    }
    return text
}

func fail(_ error: DeviceError) -> Never {
    write("error code=\(error.code.rawValue) function=\(error.function) errno=\(error.errno)")
    write("plumometer-bridge-probe: \(error.description)", to: 2)
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "read", arguments.count >= 2 else { usage() }
let path = arguments[1]
var maxFrames: Int?
var grab = false
var index = 2
while index < arguments.count {
    switch arguments[index] {
    case "--grab":
        grab = true
    case "--max-frames":
        index += 1
        guard index < arguments.count, let count = Int(arguments[index]), count > 0 else { usage() }
        maxFrames = count
    default:
        usage()
    }
    index += 1
}

let loop: PollLoop
let device: EvdevDevice
do {
    loop = try PollLoop(signals: [SIGINT, SIGTERM, SIGHUP])
    device = try EvdevDevice(path: path, grab: grab)
} catch {
    fail(error)
}

let description = device.description
write(
    "device path=\(device.path) name=\"\(description.name)\" id=\(description.identity.idString)"
        + " protocol=\(description.contactProtocol.rawValue) slots=\(description.slotCount.map { String($0) } ?? "-")"
        + " monotonic=\(device.usesMonotonicClock)"
)
for property in description.properties.sorted() {
    write("property \(hex(property.rawValue)) \(property.name)")
}
for (axis, info) in description.axes.sorted(by: { $0.key < $1.key }) {
    write(
        "axis \(axis.name) min=\(info.minimum) max=\(info.maximum) fuzz=\(info.fuzz) flat=\(info.flat)"
            + " res=\(info.resolution)"
    )
}
for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where type != .syn {
    write("codes \(type.name ?? hex(type.rawValue)) " + codes.sorted().map(hex).joined(separator: " "))
}
var decoder = ContactDecoder(device: description)
if let initial = decoder.seed(with: device.openingState) {
    write("initial " + line(for: initial))
} else {
    write("initial none")
}

var frames = 0
var resyncs = 0
var exitStatus: Int32 = 0
var reason = ""
loop.onSignal = { signal in
    reason = "signal-\(signal)"
    loop.stop()
}
loop.watch(device.fileDescriptor) {
    do throws(DeviceError) {
        for input in try device.read() {
            if case .resyncBegan = input { resyncs += 1 }
            guard let frame = decoder.consume(input) else { continue }
            write("frame " + line(for: frame))
            frames += 1
            if let maxFrames, frames >= maxFrames {
                reason = "max-frames"
                loop.stop()
                return
            }
        }
    } catch {
        write("error code=\(error.code.rawValue) function=\(error.function) errno=\(error.errno)")
        write("plumometer-bridge-probe: \(error.description)", to: 2)
        reason = "error"
        exitStatus = 1
        loop.stop()
    }
}
loop.run()
write("resyncs total=\(resyncs)")
write("end reason=\(reason) frames=\(frames)")
device.close()
exit(exitStatus)
