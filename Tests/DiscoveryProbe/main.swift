// The discovery probe: lists and follows devices through the bridge's discovery, for the umockdev tests.
//
//   plumometer-discovery-probe list [--all]
//       one tab-separated line per device: node, name, sensing, verdict, reason (or "-"); then "best\t<node>"
//       (or "best\t-") and, when nothing is usable, "why\t<first line of whyNothingUsable>".
//   plumometer-discovery-probe monitor [--count N] [--timeout SECONDS] [--source udev|kernel]
//       prints "ready", then one "added /dev/input/eventN" or "removed /dev/input/eventN" line per hotplug
//       event; exits 0 after N events, 3 on timeout.
//   plumometer-discovery-probe guard PATH...
//       for each path, "refused <code>\t<message>" when OpenGuard refuses it, else opens it as EvdevDevice:
//       "opened PATH" or "unopenable PATH\t<error>" (the open itself is what the tests watch for).
import Glibc
import PlumometerLinux

func fail(_ message: String, status: Int32 = 2) -> Never {
    let text = "plumometer-discovery-probe: \(message)\n"
    fflush(nil)
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func emit(_ line: String) {
    print(line)
    fflush(nil)
}

func monitor(_ arguments: [String]) -> Never {
    let count = option("--count", in: arguments).flatMap { Int($0) } ?? 1
    let timeout = option("--timeout", in: arguments).flatMap { Double($0) } ?? 10
    let source = option("--source", in: arguments) ?? "udev"
    let hotplug: HotplugMonitor
    do {
        hotplug = try HotplugMonitor(source: source)
    } catch {
        fail("\(error)", status: 1)
    }
    emit("ready")
    var seen = 0
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + timeout
    while seen < count {
        clock_gettime(CLOCK_MONOTONIC, &now)
        let remaining = deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        if remaining <= 0 { fail("timed out after \(seen) of \(count) events", status: 3) }
        var descriptor = pollfd(fd: hotplug.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(1, remaining * 1000)))
        if ready < 0 && errno != EINTR { fail("poll: \(String(cString: strerror(errno)))", status: 1) }
        guard ready > 0 else { continue }
        for event in hotplug.receive() {
            switch event {
            case .added(let node): emit("added \(node)")
            case .removed(let node): emit("removed \(node)")
            }
            seen += 1
        }
    }
    exit(0)
}

func list(_ arguments: [String]) -> Never {
    let report: DiscoveryReport
    do {
        report = try DeviceDiscovery.scan(includeSkipped: arguments.contains("--all"))
    } catch {
        fail("\(error)", status: 1)
    }
    for device in report.devices {
        let reason = device.verdict.reason ?? device.classification?.reason ?? "-"
        emit([device.node, device.name, device.sensing.rawValue, device.verdict.label, reason].joined(separator: "\t"))
    }
    emit("best\t" + (report.best?.node ?? "-"))
    if report.best == nil {
        emit("why\t" + (report.whyNothingUsable.split(separator: "\n").first.map(String.init) ?? ""))
    }
    exit(0)
}

func guardPaths(_ paths: [String]) -> Never {
    for path in paths {
        if let refusal = OpenGuard.check(path: path) {
            emit("refused \(refusal.code.rawValue)\t\(refusal)")
            continue
        }
        do {
            let device = try EvdevDevice(path: path)
            device.close()
            emit("opened \(path)")
        } catch {
            emit("unopenable \(path)\t\(error)")
        }
    }
    exit(0)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list": list(Array(arguments.dropFirst()))
case "monitor": monitor(Array(arguments.dropFirst()))
case "guard": guardPaths(Array(arguments.dropFirst()))
default: fail("usage: plumometer-discovery-probe list [--all] | monitor [--count N] [--timeout S]")
}
