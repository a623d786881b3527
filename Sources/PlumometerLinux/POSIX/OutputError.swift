import Glibc

/// A failure to write an output or to read or create a file: what failed, on which output, why, and what to do.
///
/// Modelled on swift-nio's file-system errors, like ``DeviceError``: a small set of codes a caller can switch on,
/// the output's name or the file's path, the C function that failed, its errno, and a one-sentence message. Two
/// codes are stops rather than failures: ``Code/closed`` and ``Code/interrupted`` end the CLI quietly with
/// status 0.
public struct OutputError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What kind of failure this is, independent of the exact errno.
    public enum Code: String, Sendable, Hashable {
        /// `EPIPE` on a write, or a hang-up on a pipe's write end: the reader went away (`plumometer | head -1`).
        case closed
        /// A stop signal (SIGINT, SIGTERM) arrived while a write waited for a stalled reader, before the text
        /// was begun: the output stops between complete lines.
        case interrupted
        /// A write to an open output failed for another reason (`ENOSPC`, `EIO`, ...).
        case writeFailed = "write-failed"
        /// A file could not be created (or truncated) for writing.
        case createFailed = "create-failed"
        /// A file could not be opened or read.
        case readFailed = "read-failed"
    }

    public var code: Code
    /// `standard output`, `standard error`, or the file's path.
    public var name: String
    /// The C function that failed (`open`, `read`, `write`), or that saw the stop (`poll`).
    public var function: String
    /// The errno the function reported; 0 for ``Code/interrupted``, where no call failed.
    public var errno: Int32

    /// Creates an error with every field given.
    public init(code: Code, name: String, function: String, errno: Int32) {
        self.code = code
        self.name = name
        self.function = function
        self.errno = errno
    }

    /// The reader of `name` went away, as `function` found out (`write` gets `EPIPE`, `poll` sees `POLLHUP`).
    public static func closed(_ name: String, function: String = "write") -> OutputError {
        OutputError(code: .closed, name: name, function: function, errno: EPIPE)
    }

    /// A stop signal came while `name` was not taking data.
    public static func interrupted(_ name: String) -> OutputError {
        OutputError(code: .interrupted, name: name, function: "poll", errno: 0)
    }

    /// Whether this is a stop (the reader went away, or a stop signal came) rather than a failure.
    public var isStop: Bool { code == .closed || code == .interrupted }

    /// The C library's text for ``errno``, for example "No space left on device".
    public var errnoText: String { String(cString: strerror(errno)) }

    /// One sentence: the output or file, what failed, and what the user can do.
    public var description: String {
        switch code {
        case .closed: "the reader of \(name) went away (\(function): \(errnoText)); stopping."
        case .interrupted: "a stop signal came while \(name) was not taking data; stopped between complete lines."
        case .writeFailed where errno == EBADF && name == "standard output":
            "cannot write to standard output: it is closed (started with >&-). Give it a file or a pipe."
        case .readFailed where errno == EBADF && name == "standard input":
            "cannot read standard input: it is closed (started with <&-). Give the recording on standard input, "
                + "or name its file."
        case .writeFailed: "cannot write to \(name): \(errnoText)."
        case .createFailed where errno == ELOOP:
            "cannot write \(name): it is a symbolic link, and plumometer never writes through one (it could point at "
                + "any file). Remove it or choose another file."
        case .createFailed where errno == EPERM && function == "fstat":
            "cannot write \(name): it belongs to another user, and plumometer does not overwrite it. Remove it or "
                + "choose another file."
        case .createFailed: "cannot write \(name): \(errnoText). Choose another file."
        case .readFailed: "cannot read \(name): \(errnoText). Check the file name."
        }
    }
}
