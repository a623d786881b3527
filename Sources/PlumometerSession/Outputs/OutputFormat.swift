/// The formats of readings (stream, replay, demo), in the order help lists them.
public enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case jsonl
    case csv
    case live
}

/// What the live view draws: the pad to scale with a circle per contact, or a bar per contact.
public enum LiveViewMode: String, CaseIterable, Sendable {
    case map
    case bars
}
