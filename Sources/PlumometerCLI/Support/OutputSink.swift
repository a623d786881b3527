import Glibc

/// The reader of stdout went away (`| head -1`): stop at once, quietly, with status 0.
struct OutputClosed: Error {}

/// Writes whole lines to a file descriptor, unbuffered between lines: every reading is on its way to the
/// consumer when `write` returns, which is what a background reader feeding a pipe or FIFO needs.
final class OutputSink {
    let fileDescriptor: Int32
    /// Bytes written so far (for the tests' and benchmarks' benefit).
    private(set) var bytesWritten = 0

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Standard output. SIGPIPE is ignored so that a closed pipe shows up as `EPIPE` here, not a kill.
    static func standardOutput() -> OutputSink {
        signal(SIGPIPE, SIG_IGN)
        return OutputSink(fileDescriptor: STDOUT_FILENO)
    }

    /// Whether the descriptor is a pipe or socket, whose reader can go away while we wait for input.
    var isPipe: Bool {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK
    }

    /// Whether the reader of a pipe has gone away (`POLLERR`/`POLLHUP` on the write end), without writing.
    var readerHasGone: Bool {
        var entry = pollfd(fd: fileDescriptor, events: 0, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Writes `text` completely, retrying short writes and `EINTR`.
    /// - Throws: ``OutputClosed`` when the reader is gone (`EPIPE`), ``CLIError`` for other write failures.
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN {
                    // A non-blocking descriptor inherited from the caller: wait until it can take more.
                    var pollDescriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&pollDescriptor, 1, -1)
                    continue
                }
                if error == EPIPE { throw OutputClosed() }
                throw CLIError.runtime(
                    "cannot write to \(fileDescriptor == STDOUT_FILENO ? "standard output" : "the output"): "
                        + String(cString: strerror(error)) + "."
                )
            }
        }
        bytesWritten += text.utf8.count
    }
}

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

    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
