import PlumometerLinux
import PlumometerOutput

/// Messages for people: standard error, never mixed into the data on stdout.
enum Diagnostics {
    nonisolated(unsafe) static var quiet = false

    /// An informational message (suppressed by `--quiet`).
    static func note(_ message: String) {
        guard !quiet else { return }
        writeError("plumometer: " + message + "\n")
    }

    /// An error message (never suppressed).
    static func error(_ message: String) {
        writeError("plumometer: " + message + "\n")
    }

    /// Routes libevdev's own log lines here, prefixed `plumometer: libevdev: ` and rate-limited, instead of raw on
    /// stderr.
    static func routeLibevdevLog() {
        LibevdevLog.install { message in error("libevdev: " + message) }
    }

    /// Raw text on stderr (prompts, usage); a failing stderr has nowhere to be reported, so it is ignored.
    static func writeError(_ text: String) {
        try? FileDescriptorWriter.standardError.write(text.forTerminal)
    }
}
