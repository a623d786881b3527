import PlumometerOutput

/// Messages for people: standard error (the runtime's console), never mixed into the data on stdout.
public enum Diagnostics {
    /// `--quiet`: notes are left out; errors and prompts are not (the runtime console's).
    public static var quiet: Bool {
        get { Runtime.current.console.quiet }
        set {
            let console = Runtime.current.console
            console.quiet = newValue
        }
    }

    /// An informational message (suppressed by `--quiet`).
    public static func note(_ message: String) {
        guard !quiet else { return }
        writeError("plumometer: " + message + "\n")
    }

    /// An error message (never suppressed).
    public static func error(_ message: String) {
        writeError("plumometer: " + message + "\n")
    }

    /// Raw text on stderr (prompts, usage, tables), control characters made visible.
    public static func writeError(_ text: String) {
        Runtime.current.console.writeError(text.forTerminal)
    }
}
