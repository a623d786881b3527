import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerSession

extension ListCommand: Command {
    /// `list`'s options.
    enum Options {
        static let format = Option<ReportFormat>.choice(
            "format",
            short: "f",
            cases: ReportFormat.allCases,
            help: "Output format (default text)."
        )
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
            throw CLIError.runtime("cannot list input devices: \(error)")
        }
        let devices = report.ranked + report.devices.filter { !$0.isUsable }
        if try arguments.value(of: Options.format) == .json {
            try StandardOutput.write("[" + devices.map(json).joined(separator: ",") + "]\n")
        } else {
            try StandardOutput.write(devices.map(text).joined())
        }
        if report.best == nil {
            Diagnostics.note(report.whyNothingUsable)
        } else if let best = report.best {
            Diagnostics.note(
                "best: \(best.node.forTerminalName) (\(best.name.forTerminalName)); 'plumometer' reads it by default"
            )
        }
    }

    /// One block per device, like `libinput list-devices`.
    static func text(_ device: DiscoveredDevice) -> String {
        var lines = ["\(device.node.forTerminalName)  \(device.name.forTerminalName)"]
        if let identity = device.identity { lines.append("  id:        \(identity.idString)") }
        if !device.kinds.isEmpty {
            lines.append("  kind:      " + device.kinds.map(\.rawValue).joined(separator: ", "))
        }
        if let description = device.description {
            if let slots = description.reportedSlots { lines.append("  slots:     \(slots)") }
            if let axis = description.pressureAxis, let range = description.axes[axis] {
                lines.append(
                    "  pressure:  \(axis.name) \(range.minimum)..\(range.maximum), resolution \(range.resolution)"
                )
            }
        }
        lines.append("  sensing:   " + device.sensing.rawValue)
        if device.isUsable, let classification = device.classification {
            lines.append("             " + classification.reason)
        }
        // Every finding of the static part, as `plumometer probe --static` prints them.
        if let findings = device.classification?.findings, !findings.isEmpty {
            lines.append("  findings:")
            for finding in findings {
                lines.append("    - \(finding.code.rawValue): \(finding.finding) -> \(finding.implication)")
            }
        }
        if let remapper = device.remapper { lines.append("  remapper:  " + remapper.explanation.forTerminalName) }
        // A device that is not usable says why once, in its verdict.
        lines.append("  verdict:   " + device.verdict.label + (device.verdict.reason.map { ": " + $0 } ?? ""))
        return lines.joined(separator: "\n") + "\n\n"
    }

    static func json(_ device: DiscoveredDevice) -> String {
        var fields = [
            "\"node\":" + JSONText.string(device.node),
            "\"name\":" + JSONText.string(device.name),
            "\"id\":" + JSONText.optional(device.identity?.idString, JSONText.string),
            "\"kinds\":[" + device.kinds.map { JSONText.string($0.rawValue) }.joined(separator: ",") + "]",
        ]
        let description = device.description
        fields.append("\"slots\":" + JSONText.optional(description?.reportedSlots) { String($0) })
        if let description, let axis = description.pressureAxis, let range = description.axes[axis] {
            fields.append(
                "\"pressure\":{\"axis\":" + JSONText.string(axis.name)
                    + ",\"min\":\(range.minimum),\"max\":\(range.maximum),\"resolution\":\(range.resolution)}"
            )
        } else {
            fields.append("\"pressure\":null")
        }
        fields.append("\"sensing\":" + JSONText.string(device.sensing.rawValue))
        fields.append(
            "\"force_sensor\":" + JSONText.optional(device.classification?.isForceSensor) { $0 ? "true" : "false" }
        )
        fields.append(
            "\"semi_mt\":" + JSONText.optional(device.classification?.semiMultitouch) { $0 ? "true" : "false" }
        )
        fields.append("\"findings\":" + ProbeText.findingsJSON(device.classification?.findings ?? []))
        switch device.remapper {
        case .clonedAs(let node, _): fields.append("\"remapper\":{\"cloned_as\":" + JSONText.string(node) + "}")
        case .cloneOf(let node, _): fields.append("\"remapper\":{\"clone_of\":" + JSONText.string(node) + "}")
        case nil: fields.append("\"remapper\":null")
        }
        fields.append("\"usable\":" + (device.isUsable ? "true" : "false"))
        fields.append("\"verdict\":" + JSONText.string(device.verdict.label))
        fields.append(
            "\"reason\":" + JSONText.optional(device.verdict.reason ?? device.classification?.reason, JSONText.string)
        )
        return "{" + fields.joined(separator: ",") + "}"
    }
}
