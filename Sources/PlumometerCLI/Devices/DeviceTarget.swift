import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerSession

/// Which device `--device` names: a node path, a name substring, or (absent) the best one found.
enum DeviceTarget {
    case path(String)
    case name(String)
    case best

    init(_ selector: String?) {
        guard let selector, !selector.isEmpty else {
            self = .best
            return
        }
        self = selector.hasPrefix("/") ? .path(selector) : .name(selector)
    }

    /// The node to open now.
    ///
    /// A path is returned as it is: whether it may be opened (not a keyboard) is ``LiveSource``'s check, made once
    /// just before the open, whatever path led there.
    /// - Throws: ``CLIError`` that says why nothing fits (no candidates, permissions, no match).
    func resolve() throws -> String {
        switch self {
        case .path(let path):
            return path
        case .name(let name):
            let report = try DeviceDiscovery.scan(includeSkipped: false)
            // With no input device at all, no name could match: say that, not that this one matched nothing.
            if report.scannedCount == 0 { throw CLIError.runtime(report.whyNothingUsable) }
            guard let match = report.select(name) else {
                let names = report.devices.map { "'\($0.name.forTerminalName)' (\($0.node.forTerminalName))" }.joined(
                    separator: ", "
                )
                throw CLIError.runtime(
                    "no input device's name contains '\(name)'"
                        + (names.isEmpty ? "." : "; candidates: \(names).") + " See 'plumometer list --all'."
                )
            }
            Self.noteRemapper(match)
            // Several names match: say so, and which one is read, rather than pick one without a word.
            let matches = report.devices.filter { device in
                if case .skipped = device.verdict { return false }
                return device.name.lowercased().contains(name.lowercased())
            }
            if matches.count > 1 && match.name.lowercased().contains(name.lowercased()) {
                Diagnostics.note(Self.severalMatch(name, matches: matches, reading: match))
            }
            return match.node
        case .best:
            let report = try DeviceDiscovery.scan(includeSkipped: false)
            guard let best = report.best else { throw CLIError.runtime(report.whyNothingUsable) }
            Self.noteRemapper(best)
            return best.node
        }
    }

    /// Says on stderr when the chosen device has an input remapper's copy, and which node to read.
    static func noteRemapper(_ device: DiscoveredDevice) {
        guard let remapper = device.remapper else { return }
        Diagnostics.note("\(device.node.forTerminalName): " + remapper.explanation.forTerminalName)
    }

    /// `'pad' matches 2 devices: '...' (/dev/input/event7), '...' (/dev/input/event9); reading /dev/input/event7
    /// ('...'), the best of them; name another by its node (-d /dev/input/eventN).`
    static func severalMatch(_ name: String, matches: [DiscoveredDevice], reading match: DiscoveredDevice) -> String {
        let listing = matches.map { "'\($0.name.forTerminalName)' (\($0.node.forTerminalName))" }
        return "'\(name.forTerminalName)' matches \(matches.count) devices: " + listing.joined(separator: ", ")
            + "; reading \(match.node.forTerminalName) ('\(match.name.forTerminalName)'), the best of them; "
            + "name another by its node (-d /dev/input/eventN)."
    }

    /// Whether a device that just appeared is the one to read: the same identity as before, or in auto mode
    /// (and for a name) any suitable device.
    func accepts(_ candidate: DiscoveredDevice, previous: DeviceIdentity?) -> Bool {
        guard candidate.isUsable, let identity = candidate.description?.identity else { return false }
        if let previous, identity == previous { return true }
        switch self {
        case .path(let path): return candidate.node == path
        case .name(let name): return candidate.name.lowercased().contains(name.lowercased())
        case .best: return true
        }
    }
}

/// The live device as the session opens it (``Session/open(_:for:begin:)``).

extension DeviceOpening {
    /// The device of a command that reads a live device or a recording (`weigh`, `calibrate`, `probe`): the
    /// recording `replay` (with its `--desc`) and the device of it `selector` names (``RecordingDeviceChoice``: nil
    /// for a recording of one device), played as fast as it comes; else the live device `selector` names (nil:
    /// the best one), found and opened when the session opens it.
    static func chosen(device selector: String?, replay: String?, description: String?) throws -> DeviceOpening {
        if let replay {
            let input = try RecordingFile.input(replay, selector: selector, description: description)
            return .recording(input, pacing: Pacing(speed: nil))
        }
        return .live(device: DeviceTarget(selector))
    }

    /// The live device `target` names, resolved and opened (read-only; grabbed with `grab`) when the session opens
    /// it.
    static func live(device target: DeviceTarget, grab: Bool = false) -> DeviceOpening {
        .live { try LiveSource(path: try target.resolve(), grab: grab) }
    }

    /// The live device at `path`.
    static func live(path: String, grab: Bool = false) -> DeviceOpening {
        .live { try LiveSource(path: path, grab: grab) }
    }
}
