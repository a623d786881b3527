import Glibc

/// A file read a chunk at a time without ever blocking: a regular file, standard input, a FIFO, a pipe or a
/// terminal, so the poll loop (and its signalfd) stays in charge while a recording arrives.
///
/// A path is opened with `O_NONBLOCK`, which for a FIFO returns at once even when nothing writes to it yet (a
/// blocking `open(2)` would wait there with SIGINT and SIGTERM blocked). Standard input is used as inherited and
/// never switched to non-blocking (that flag belongs to the shared open file, a terminal's shell would see it):
/// anything but a regular file is read only after `poll(2)` said it is ready, so a read cannot block.
/// The corresponding C functions are `open(2)`, `poll(2)` and `read(2)`.
public final class InputFile {
    /// What one ``read(into:)`` found.
    public enum ReadResult: Equatable, Sendable {
        /// So many bytes were read into the buffer.
        case bytes(Int)
        /// Nothing is there yet: poll ``fileDescriptor`` and try again when it is ready.
        case wouldBlock
        /// The end of the input (the writer closed its end, Ctrl-D on a terminal, the end of a file).
        case end
    }

    public let fileDescriptor: Int32
    /// What messages call it: the path, or `-` for standard input.
    public let name: String
    /// Whether it is a regular file: always ready, so reading it never waits and never needs a poll.
    public let isRegularFile: Bool
    /// Whether it is a terminal (standard input typed at, `/dev/stdin` on a terminal).
    public let isTerminal: Bool
    private let isFIFO: Bool
    private let ownsDescriptor: Bool
    /// What ``OpenFiles`` knows it as while it is open.
    private var identity: OpenFiles.Identity?

    /// Opens `path` for reading, or takes standard input for `-`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/readFailed`` naming the path (missing, unreadable).
    public init(path: String) throws(OutputError) {
        if path == "-" {
            if StandardStreams.inputWasClosed {
                throw OutputError(code: .readFailed, name: "standard input", function: "read", errno: EBADF)
            }
            fileDescriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            switch retryingOnInterrupt({ Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }) {
            case .success(let fd): fileDescriptor = fd
            case .failure(let error):
                throw OutputError(code: .readFailed, name: path, function: "open", errno: error.rawValue)
            }
            ownsDescriptor = true
        }
        name = path
        var status = stat()
        let type = fstat(fileDescriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        isRegularFile = type == S_IFREG
        isFIFO = type == S_IFIFO
        isTerminal = isatty(fileDescriptor) == 1
        // No output of this process may be this file while it is read (stdin redirected from it included).
        identity = OpenFiles.noteInput(fileDescriptor)
    }

    deinit {
        if let identity { OpenFiles.forgetInput(identity) }
        if ownsDescriptor { closeDescriptor(fileDescriptor) }
    }

    /// Reads what is there, up to the buffer's size, without blocking.
    /// - Throws: ``OutputError`` with ``OutputError/Code/readFailed`` (a directory, an I/O error).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(OutputError) -> ReadResult {
        var ready: Int16 = 0
        if !isRegularFile {
            var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard case .success(let count) = retryingOnInterrupt({ poll(&entry, 1, 0) }), count == 1 else {
                return .wouldBlock
            }
            ready = entry.revents
        }
        switch retryingOnInterrupt({ Glibc.read(fileDescriptor, buffer.baseAddress, buffer.count) }) {
        case .success(0):
            // A FIFO nobody has opened for writing yet reads as empty, and poll reports nothing for it: not an end.
            if isFIFO && ready & Int16(POLLIN | POLLHUP) == 0 { return .wouldBlock }
            return .end
        case .success(let count):
            return .bytes(count)
        case .failure(let error) where error.rawValue == EAGAIN:
            return .wouldBlock
        case .failure(let error):
            throw OutputError(code: .readFailed, name: name, function: "read", errno: error.rawValue)
        }
    }

    /// Up to `count` bytes from the start of a regular file, without moving the read position (nil for anything
    /// else): a look at the head before reading it. The corresponding C function is `pread(2)`.
    public func peek(_ count: Int) -> [UInt8]? {
        guard isRegularFile else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { buffer in
            retryingOnInterrupt { pread(fileDescriptor, buffer.baseAddress, buffer.count, 0) }
        }
        guard case .success(let read) = result else { return nil }
        return Array(bytes[0..<read])
    }
}
