public import PlumometerCore

extension JSONLinesFormatter {
    /// The session's `summary` record, written once at the end with `--summary` (docs/output-format.md has its
    /// schema): the session's times and counts, then each contact's placed and lifted times, settled weight, peak
    /// and time with the heaviest mark.
    /// - Parameters:
    ///   - summary: what the session came to.
    ///   - device: the device's node or recording name, as in the `frame` records.
    /// - Returns: one JSON line, newline included.
    public func summary(_ summary: SessionSummary, device: String) -> String {
        var line = LineBuilder(capacity: 192 + device.utf8.count + summary.contacts.count * 180)
        line.append("{\"type\":\"summary\",\"device\":")
        line.append(jsonString: device)
        line.append(",\"start\":")
        if let start = summary.start { line.append(seconds: start) } else { line.append("null") }
        line.append(",\"end\":")
        if let end = summary.end { line.append(seconds: end) } else { line.append("null") }
        line.append(",\"duration\":")
        line.append(fixed: summary.duration, decimals: 6)
        line.append(",\"frames\":")
        line.append(integer: summary.frames)
        line.append(",\"resyncs\":")
        line.append(integer: summary.resyncs)
        line.append(",\"skipped\":")
        line.append(integer: summary.skipped)
        line.append(",\"contacts\":[")
        for (index, contact) in summary.contacts.enumerated() {
            line.append(index > 0 ? ",{\"id\":" : "{\"id\":")
            line.append(integer: contact.id)
            line.append(",\"placed\":")
            line.append(seconds: contact.placed)
            line.append(",\"lifted\":")
            if let lifted = contact.lifted { line.append(seconds: lifted) } else { line.append("null") }
            line.append(",\"settled\":")
            if let settled = contact.settled {
                // Grams as in the frame record (2 decimals); percent with 2, one more than the frame's percent,
                // since a mean is finer than any one reading.
                line.append(settled.unit == .grams ? "{\"unit\":\"g\",\"mean\":" : "{\"unit\":\"%\",\"mean\":")
                line.append(fixed: settled.mean, decimals: 2)
                line.append(",\"min\":")
                line.append(fixed: settled.minimum, decimals: 2)
                line.append(",\"max\":")
                line.append(fixed: settled.maximum, decimals: 2)
                line.append(",\"sd\":")
                line.append(fixed: settled.standardDeviation, decimals: 2)
                line.append(",\"stable_seconds\":")
                line.append(fixed: settled.stableSeconds, decimals: 3)
                line.append("}")
            } else {
                line.append("null")
            }
            // Stable or not: all there is to say of a contact that never settled.
            line.append(
                contact.peak.unit == .grams
                    ? ",\"peak\":{\"unit\":\"g\",\"value\":" : ",\"peak\":{\"unit\":\"%\",\"value\":"
            )
            line.append(fixed: contact.peak.value, decimals: 2)
            line.append("}")
            line.append(",\"heaviest_seconds\":")
            line.append(fixed: contact.heaviestSeconds, decimals: 3)
            line.append("}")
        }
        line.append("]}\n")
        return line.string
    }
}
