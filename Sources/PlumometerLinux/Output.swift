import Glibc

/// The reader of an output went away (`plumometer | head -1`): the CLI stops at once, quietly, with status 0.
public struct OutputClosed: Error, Sendable {
    public init() {}
}

/// A stop signal arrived while a write waited for a stalled reader: the CLI stops between lines, with status 0.
public struct OutputInterrupted: Error, Sendable {
    public init() {}
}

/// A write that failed for another reason: the output's name, errno, and a sentence saying so.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// `standard output`, or the file's path.
    public var name: String
    public var errno: Int32

    public var description: String {
        "cannot write to \(name): " + String(cString: strerror(errno)) + "."
    }
}

/// Writes whole texts to a file descriptor, retrying short writes and `EINTR`: every reading is on its way to the
/// consumer when ``write(_:)`` returns, which is what a background reader feeding a pipe or FIFO needs.
/// The corresponding C function is `write(2)`.
public final class FileDescriptorWriter: @unchecked Sendable {
    public let fileDescriptor: Int32
    /// What the messages call it: `standard output`, or a path.
    public let name: String
    private let ownsDescriptor: Bool
    /// A descriptor (the poll loop's signalfd) that, once readable, ends a wait for a stalled reader: SIGINT and
    /// SIGTERM are blocked, so a write blocked in the kernel would never see them.
    public var interruptDescriptor: Int32?

    init(fileDescriptor: Int32, name: String, ownsDescriptor: Bool) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        if ownsDescriptor { closeDescriptor(fileDescriptor) }
    }

    /// Standard output, one writer for the whole process. SIGPIPE is ignored so that a closed pipe shows up as
    /// `EPIPE` (``OutputClosed``), not a kill.
    public static func standardOutput() -> FileDescriptorWriter {
        signal(SIGPIPE, SIG_IGN)
        return sharedStandardOutput
    }

    private static let sharedStandardOutput = FileDescriptorWriter(
        fileDescriptor: STDOUT_FILENO,
        name: "standard output",
        ownsDescriptor: false
    )

    /// Standard error, for messages to people.
    public static let standardError = FileDescriptorWriter(
        fileDescriptor: STDERR_FILENO,
        name: "standard error",
        ownsDescriptor: false
    )

    /// Creates (or truncates) `path` for writing, mode 0644. The corresponding C function is `open(2)`.
    /// - Throws: ``FileError`` naming the path.
    public static func create(_ path: String) throws(FileError) -> FileDescriptorWriter {
        switch retryingOnInterrupt({ Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }) {
        case .success(let fd): return FileDescriptorWriter(fileDescriptor: fd, name: path, ownsDescriptor: true)
        case .failure(let error): throw FileError(path: path, operation: .write, errno: error.rawValue)
        }
    }

    /// Writes all of `text`.
    /// - Throws: ``OutputClosed`` when the reader is gone (`EPIPE`), ``OutputInterrupted`` when a stop signal came
    ///   while the reader was stalled before the text was begun, ``OutputError`` for other failures.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            if let interruptDescriptor, !waitUntilWritable(orReadable: interruptDescriptor) {
                throw OutputInterrupted()
            }
            var offset = 0
            while offset < buffer.count {
                switch retryingOnInterrupt({ Glibc.write(fileDescriptor, base + offset, buffer.count - offset) }) {
                case .success(let written):
                    offset += written
                case .failure(let error) where error.rawValue == EAGAIN:
                    // A non-blocking descriptor inherited from the caller: wait until it takes more.
                    var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = retryingOnInterrupt { poll(&entry, 1, -1) }
                case .failure(let error) where error.rawValue == EPIPE:
                    throw OutputClosed()
                case .failure(let error):
                    throw OutputError(name: name, errno: error.rawValue)
                }
            }
        }
    }

    /// Waits until the output can take data, or `interrupt` becomes readable (then false). Only the start of a
    /// text waits here: once begun, a line is finished, so a reader never sees half of one.
    private func waitUntilWritable(orReadable interrupt: Int32) -> Bool {
        var entries = [
            pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard case .success = retryingOnInterrupt({ poll(&entries, 2, -1) }) else { return true }
            if entries[0].revents != 0 { return true }
            if entries[1].revents != 0 { return false }
        }
    }

    /// Whether the descriptor is a pipe or socket, whose reader can go away while nothing is written.
    public var isPipe: Bool {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK
    }

    /// Whether the reader of a pipe has gone away (`POLLERR`/`POLLHUP` on the write end), without writing.
    public var readerHasGone: Bool {
        var entry = pollfd(fd: fileDescriptor, events: 0, revents: 0)
        guard case .success(let ready) = retryingOnInterrupt({ poll(&entry, 1, 0) }), ready == 1 else { return false }
        return entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Whether a write of up to `PIPE_BUF` (4096) bytes would not block now: for a pipe, a free page (such a write
    /// is atomic and fits in it); files always. The corresponding C function is `poll(2)`.
    public var canTakeSmallWrite: Bool {
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        guard case .success(let ready) = retryingOnInterrupt({ poll(&entry, 1, 0) }), ready == 1 else { return false }
        return entry.revents & Int16(POLLOUT) != 0
    }

    /// The size up to which ``canTakeSmallWrite`` promises a write will not block.
    public static let smallWriteLimit = Int(PIPE_BUF)

    /// Whether the descriptor is a terminal. The corresponding C function is `isatty(3)`.
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }
}

/// A file that could not be read or written: the path, errno and a sentence with what to do.
public struct FileError: Error, CustomStringConvertible, Sendable {
    public enum Operation: Sendable { case read, write }
    public var path: String
    public var operation: Operation
    public var errno: Int32

    public var description: String {
        let reason = String(cString: strerror(errno))
        switch operation {
        case .read: return "cannot read \(path): \(reason). Check the file name."
        case .write: return "cannot write \(path): \(reason). Choose another file."
        }
    }
}

/// Whole files, read at once. The corresponding C functions are `open(2)` and `read(2)`.
public enum Files {
    /// The bytes of `path`.
    /// - Throws: ``FileError`` naming the path (missing, unreadable, a directory).
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        let fd: Int32
        switch retryingOnInterrupt({ Glibc.open(path, O_RDONLY | O_CLOEXEC) }) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): throw FileError(path: path, operation: .read, errno: error.rawValue)
        }
        defer { closeDescriptor(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            switch result {
            case .success(0): return bytes
            case .success(let count): bytes.append(contentsOf: chunk[0..<count])
            case .failure(let error): throw FileError(path: path, operation: .read, errno: error.rawValue)
            }
        }
    }

    /// Replaces `path` with `text`.
    public static func write(_ text: String, to path: String) throws {
        try FileDescriptorWriter.create(path).write(text)
    }
}

/// The clocks input events are stamped with. The corresponding C function is `clock_gettime(2)`.
public enum Clock {
    /// `CLOCK_MONOTONIC`, in microseconds: what devices stamp events with once asked to.
    public static func monotonicMicroseconds() -> Int64 { clockMicroseconds(monotonic: true) }

    /// `CLOCK_REALTIME`, in microseconds: what evdev uses unless asked otherwise.
    public static func realtimeMicroseconds() -> Int64 { clockMicroseconds(monotonic: false) }
}

/// The signals the CLI's loop handles, so it needs no C constants of its own.
public enum StopSignal {
    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let hangup = SIGHUP
    /// The terminal changed size: the live view redraws to fit.
    public static let windowChange = SIGWINCH
}

/// Ends the process with `status`. The corresponding C function is `exit(3)`.
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}

/// Blocks SIGINT, SIGTERM and SIGHUP for the calling thread (and the threads it starts later), so that a signal
/// arriving before the poll loop's signalfd exists stays pending instead of killing the process mid-start-up;
/// the loop then reads it like any other. The corresponding C function is `pthread_sigmask(3)`.
public func blockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
}
