import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerSession

extension ListCommand: Command {
    /// `list`'s options.
    enum Options {
        static let format = ReportOptions.format
        static let all = Flag(
            "all",
            short: "a",
            help: "Also list devices skipped without being opened (keyboards, mice, ...) and why."
        )
    }

    static let spec = CommandSpec(
        name: "list",
        summary: "List input devices, how each senses pressure, and why any is not usable.",
        options: [Options.format, Options.all, Flag.quiet],
        discussion: """
            Devices are found through udev. Only touchpads, touchscreens and tablets with a pressure axis are \
            opened (read-only, briefly); keyboards are never opened. Force sensors rank before devices whose \
            pressure only tracks contact size.
            """,
        examples: [
            "plumometer list                 # the candidates, best first",
            "plumometer list --all           # also what was skipped without being opened, and why",
            "plumometer list -f json | jq '.[] | select(.usable)'",
        ]
    )
}

/// `plumometer list`: every candidate device, how it senses pressure, and why any is not usable.
enum ListCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let report: DiscoveryReport
        do throws(UdevError) {
            report = try DeviceDiscovery.scan(includeSkipped: arguments.flag(Options.all))
        } catch {
            throw CommandFailure("cannot list input devices: ", cause: error)
        }
        let devices = (report.ranked + report.devices.filter { !$0.isUsable }).map(DeviceListEntry.init)
        let json = try arguments.value(of: Options.format) == .json
        try StandardOutput.write(json ? DeviceListText.json(devices) : DeviceListText.text(devices))
        if report.best == nil {
            Diagnostics.note(report.whyNothingUsable)
        } else if let best = report.best {
            Diagnostics.note(
                "best: \(best.node.forTerminalName) (\(best.name.forTerminalName)); 'plumometer' reads it by default"
            )
        }
    }
}

extension DeviceListEntry {
    /// What discovery found out about `device`, as the values `list` shows.
    init(_ device: DiscoveredDevice) {
        let remapper = device.remapper.map { link in
            switch link {
            case .clonedAs(let node, _): Remapper(relation: "cloned_as", node: node, explanation: link.explanation)
            case .cloneOf(let node, _): Remapper(relation: "clone_of", node: node, explanation: link.explanation)
            }
        }
        self.init(
            node: device.node,
            name: device.name,
            identity: device.identity,
            kinds: device.kinds.map(\.rawValue),
            description: device.description,
            classification: device.classification,
            remapper: remapper,
            usable: device.isUsable,
            verdict: device.verdict.label,
            reason: device.verdict.reason
        )
    }
}
