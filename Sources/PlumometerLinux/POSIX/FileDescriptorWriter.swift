import CPOSIX
import Glibc
public import PlumometerSeams

/// Writes whole texts to a file descriptor, retrying short writes and `EINTR`: every reading is on its way to the
/// consumer when ``write(_:)`` returns, which is what a background reader feeding a pipe or FIFO needs.
/// The corresponding C function is `write(2)`.
public final class FileDescriptorWriter: @unchecked Sendable {
    public let fileDescriptor: Int32
    /// What the messages call it: `standard output`, or a path.
    public let name: String
    private let ownsDescriptor: Bool
    /// A further descriptor that, once readable, ends a wait for a stalled reader as a stop signal does (a test
    /// stands a pipe for one). The tool sets none: its waits hear SIGINT and SIGTERM through ``StopRequests``, and
    /// never the poll loop's signalfd, which also carries SIGWINCH, SIGHUP and job control, none of them a stop.
    public var interruptDescriptor: Int32?
    /// Whether a write here never waits for a reader: a regular file, or a character device that is not a
    /// terminal (`/dev/null`). Such a descriptor is always writable, so asking `poll` first would be wasted.
    public let neverBlocks: Bool
    /// `stream -o FILE --max-size`: the file is rotated once it has grown to the limit (``Rotation``).
    private var rotation: Rotation?
    /// The size of the rotated file so far.
    private var size: Int64 = 0
    /// What ``OpenFiles`` knows an appended file as.
    private var identity: OpenFiles.Identity?

    init(fileDescriptor: Int32, name: String, ownsDescriptor: Bool) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        var status = stat()
        if fstat(fileDescriptor, &status) == 0 {
            let type = status.st_mode & S_IFMT
            neverBlocks = type == S_IFREG || (type == S_IFCHR && isatty(fileDescriptor) == 0)
        } else {
            neverBlocks = false
        }
    }

    deinit {
        if let identity { OpenFiles.forgetOutput(identity) }
        if ownsDescriptor { closeDescriptor(fileDescriptor) }
    }

    /// Standard output, one writer for the whole process. SIGPIPE is ignored so that a closed pipe shows up as
    /// `EPIPE` (``OutputError/Code/closed``), not a kill.
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

    /// Creates `path` for writing, or empties it, mode 0644: never through a symbolic link planted at the path
    /// (`O_NOFOLLOW`), and a regular file is emptied only when it is ours (a FIFO or a device is written as it is).
    /// The corresponding C functions are `open(2)` and `ftruncate(2)`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/createFailed``, naming the path (`ELOOP` for a symbolic
    ///   link, `EPERM` from `fstat` for another user's file).
    public static func create(_ path: String) throws(OutputError) -> FileDescriptorWriter {
        let writer = try open(path, flags: 0)
        var status = stat()
        if fstat(writer.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
            guard status.st_uid == geteuid() else {
                throw OutputError(code: .createFailed, name: path, function: "fstat", errno: EPERM)
            }
            if case .failure(let error) = retryingOnInterrupt({ ftruncate(writer.fileDescriptor, 0) }) {
                throw OutputError(code: .createFailed, name: path, function: "ftruncate", errno: error.rawValue)
            }
        }
        return writer
    }

    /// Opens `path` for appending (created when missing, mode 0644), never through a symbolic link, and starts on
    /// a new line when the file's last byte is not a newline (``startOnNewLineIfAppending()``): for a log that runs
    /// after run. The corresponding C function is `open(2)` with `O_APPEND | O_NOFOLLOW`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/createFailed`` naming the path, ``SameFileError`` for one of
    ///   this process's inputs or outputs.
    public static func append(_ path: String, rotation: Rotation? = nil) throws -> FileDescriptorWriter {
        if let conflict = OpenFiles.conflict(at: path) {
            // Appending to an input would read back what is written: refused before a byte is.
            throw SameFileError(path: path, reason: conflict)
        }
        let writer = try open(path, flags: O_APPEND)
        writer.identity = OpenFiles.noteOutput(writer.fileDescriptor, name: path)
        try writer.startOnNewLineIfAppending()
        var status = stat()
        if let rotation, fstat(writer.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            writer.rotation = rotation
            writer.size = Int64(status.st_size)
            // A file already at its limit (an earlier run's) is rotated before this run's first line.
            try writer.rotateIfFull()
        }
        return writer
    }

    /// Opens the FIFO or character device at `path` for writing as it is (``OutputFile``'s way for what is no
    /// regular file): a FIFO's wait for a reader also ends on SIGHUP, the terminal that would read it having closed.
    /// - Throws: ``OutputError``: ``OutputError/Code/interrupted`` on a stop, ``OutputError/Code/createFailed``.
    static func openDirect(_ path: String) throws(OutputError) -> FileDescriptorWriter {
        try open(path, flags: 0, hearingHangup: true)
    }

    private static func open(
        _ path: String,
        flags: Int32,
        hearingHangup: Bool = false
    ) throws(OutputError) -> FileDescriptorWriter {
        let all = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFIFO {
            return FileDescriptorWriter(
                fileDescriptor: try openFIFO(path, flags: all, hearingHangup: hearingHangup),
                name: path,
                ownsDescriptor: true
            )
        }
        // O_NONBLOCK: a FIFO made between the look and the open must not block it either (ENXIO: no reader yet).
        switch retryingOnInterrupt({ Glibc.open(path, all | O_NONBLOCK, 0o644) }) {
        case .success(let fd):
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return FileDescriptorWriter(fileDescriptor: fd, name: path, ownsDescriptor: true)
        case .failure(let error) where error.rawValue == ENXIO:
            return FileDescriptorWriter(
                fileDescriptor: try openFIFO(path, flags: all, hearingHangup: hearingHangup),
                name: path,
                ownsDescriptor: true
            )
        case .failure(let error):
            throw OutputError(code: .createFailed, name: path, function: "open", errno: error.rawValue)
        }
    }

    /// Opens the FIFO at `path` for writing, waiting for a reader as a blocking `open(2)` does, but hearing a stop
    /// signal meanwhile (``StopRequests``): the open waits on a thread of its own while this one polls for a stop.
    /// A thread left waiting after a stop ends with the process, which is stopping. With `hearingHangup`, a SIGHUP
    /// (the terminal closed: nobody will read) ends the wait too; it stays pending, only looked at, as a stop does.
    /// - Throws: ``OutputError``: ``OutputError/Code/interrupted`` on a stop, ``OutputError/Code/createFailed``.
    static func openFIFO(_ path: String, flags: Int32, hearingHangup: Bool = false) throws(OutputError) -> Int32 {
        if case .success(let fd) = retryingOnInterrupt({ Glibc.open(path, flags | O_NONBLOCK, 0o644) }) {
            // A reader is there already.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return fd
        }
        let done = eventfd(0, Int32(EFD_CLOEXEC))
        guard done >= 0 else { throw OutputError(code: .createFailed, name: path, function: "eventfd", errno: errno) }
        let result = OpenResult()
        BackgroundThread.start { [result] in
            let opened = retryingOnInterrupt { Glibc.open(path, flags, 0o644) }
            result.store(opened)
            var one: UInt64 = 1
            _ = Glibc.write(done, &one, MemoryLayout<UInt64>.size)
        }
        var entries = [pollfd(fd: done, events: Int16(POLLIN), revents: 0)]
        if let stop = StopRequests.descriptor { entries.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        let hangup = hearingHangup ? hangupDescriptor() : nil
        defer { if let hangup { closeDescriptor(hangup) } }
        if let hangup { entries.append(pollfd(fd: hangup, events: Int16(POLLIN), revents: 0)) }
        while true {
            _ = retryingOnInterrupt { poll(&entries, nfds_t(entries.count), -1) }
            if entries[0].revents != 0 { break }
            if entries.dropFirst().contains(where: { $0.revents != 0 }) {
                // The thread still owns `done`; it is closed with the process.
                throw .interrupted(path)
            }
        }
        closeDescriptor(done)
        switch result.load() {
        case .success(let fd)?: return fd
        case .failure(let error)?:
            throw OutputError(code: .createFailed, name: path, function: "open", errno: error.rawValue)
        case nil: throw OutputError(code: .createFailed, name: path, function: "open", errno: EINTR)
        }
    }

    /// A signalfd that becomes readable once SIGHUP is pending (blocked from `main` on, ``blockStopSignals()``), or
    /// nil when none can be made. The corresponding C function is `signalfd(2)`.
    private static func hangupDescriptor() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        guard case .success(let fd) = retryingOnInterrupt({ signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
        else { return nil }
        return fd
    }

    /// Writes a newline first when the descriptor is a regular file open for appending (`>>`, `-o` of `stream`)
    /// whose last byte is not one: what an earlier run cut off (a full disk, a kill) stays on a line of its own,
    /// and every record this run writes starts a line. The corresponding C function is `pread(2)`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/writeFailed`` when the newline cannot be written.
    public func startOnNewLineIfAppending() throws(OutputError) {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            fcntl(fileDescriptor, F_GETFL) & O_APPEND != 0
        else { return }
        // A descriptor opened write-only (the shell's `>>`) cannot be read: read the same file through /proc.
        var reader = fileDescriptor
        var opened: Int32?
        if fcntl(fileDescriptor, F_GETFL) & O_ACCMODE == O_WRONLY {
            guard
                case .success(let fd) = retryingOnInterrupt({
                    Glibc.open("/proc/self/fd/\(fileDescriptor)", O_RDONLY | O_CLOEXEC)
                })
            else { return }
            reader = fd
            opened = fd
        }
        defer { if let opened { closeDescriptor(opened) } }
        var last: UInt8 = 0
        guard case .success(1) = retryingOnInterrupt({ pread(reader, &last, 1, status.st_size - 1) }),
            last != UInt8(ascii: "\n")
        else { return }
        try write("\n")
    }

    /// Writes all of `text`.
    /// - Throws: ``OutputError``: ``OutputError/Code/closed`` when the reader is gone (`EPIPE`),
    ///   ``OutputError/Code/interrupted`` when a stop signal came while the reader was stalled before the text was
    ///   begun, ``OutputError/Code/writeFailed`` for other failures.
    public func write(_ text: String) throws(OutputError) {
        try write(text, knownWritable: false)
    }

    /// Writes all of `text`; with `knownWritable` (the caller has just seen ``canTakeSmallWrite``), without
    /// asking `poll` again whether it may start.
    /// - Throws: ``OutputError``, as ``write(_:)``.
    public func write(_ text: String, knownWritable: Bool) throws(OutputError) {
        var text = text
        if let failure = text.withUTF8({ writeAll($0, knownWritable: knownWritable) }) { throw failure }
        if rotation != nil {
            size += Int64(text.utf8.count)
            try rotateIfFull()
        }
    }

    /// Renames the file `PATH` to `PATH.1` (`PATH.1` to `PATH.2`, ..., the oldest, `PATH.KEEP`, removed) once it
    /// has reached ``Rotation/maximumSize``, and goes on in a new, empty `PATH` on the same descriptor: always
    /// between whole texts (lines), so no line is ever split between two files. The corresponding C functions are
    /// `rename(2)`, `unlink(2)`, `open(2)` and `dup2(2)`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/createFailed`` when the new file cannot be made.
    private func rotateIfFull() throws(OutputError) {
        guard let rotation, size >= rotation.maximumSize else { return }
        if rotation.keep == 0 {
            unlink(name)
        } else {
            unlink(name + ".\(rotation.keep)")
            for index in stride(from: rotation.keep - 1, through: 1, by: -1) {
                _ = Glibc.rename(name + ".\(index)", name + ".\(index + 1)")
            }
            if Glibc.rename(name, name + ".1") != 0 {
                throw OutputError(code: .createFailed, name: name, function: "rename", errno: errno)
            }
        }
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND
        let opened = retryingOnInterrupt { Glibc.open(name, flags, 0o644) }
        guard case .success(let fd) = opened else {
            let code = if case .failure(let error) = opened { error.rawValue } else { EIO }
            throw OutputError(code: .createFailed, name: name, function: "open", errno: code)
        }
        defer { closeDescriptor(fd) }
        guard dup2(fd, fileDescriptor) >= 0 else {
            throw OutputError(code: .createFailed, name: name, function: "dup2", errno: errno)
        }
        _ = fcntl(fileDescriptor, F_SETFD, FD_CLOEXEC)
        size = 0
        if let identity { OpenFiles.forgetOutput(identity) }
        identity = OpenFiles.noteOutput(fileDescriptor, name: name)
    }

    /// Writes all of `buffer`, or returns why not.
    ///
    /// A descriptor that can block (a pipe, a FIFO, a terminal) is written only once `poll` says it takes data, and
    /// the wait also hears a stop signal (``interruptDescriptor``, ``StopRequests``). A text of at most `PIPE_BUF`
    /// bytes (a line) then goes in one write that cannot block, so a stop falls between complete lines; a longer
    /// one (an SVG, a recording) goes `PIPE_BUF` bytes at a time, each after such a wait, so a stalled reader never
    /// makes the process deaf, and a stop may cut it.
    private func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, knownWritable: Bool) -> OutputError? {
        guard let base = buffer.baseAddress else { return nil }
        if fileDescriptor == STDOUT_FILENO, StandardStreams.outputWasClosed {
            // Started with stdout closed (`>&-`): writing into the /dev/null put in its place would lose it all.
            return OutputError(code: .writeFailed, name: name, function: "write", errno: EBADF)
        }
        let waits = !neverBlocks
        let piece = waits ? Self.smallWriteLimit : buffer.count
        var offset = 0
        while offset < buffer.count {
            if waits, !(knownWritable && offset == 0), !waitUntilWritable() { return .interrupted(name) }
            let count = Swift.min(piece, buffer.count - offset)
            switch retryingOnInterrupt({ Glibc.write(fileDescriptor, base + offset, count) }) {
            case .success(let written):
                offset += written
            case .failure(let error) where error.rawValue == EAGAIN:
                // A non-blocking descriptor inherited from the caller: the next wait sees when it takes more.
                if !waits, !waitUntilWritable() { return .interrupted(name) }
            case .failure(let error) where error.rawValue == EPIPE:
                return .closed(name)
            case .failure(let error):
                cutBack(offset)
                return OutputError(code: .writeFailed, name: name, function: "write", errno: error.rawValue)
            }
        }
        return nil
    }

    /// After a failed write (a full disk) that took only the first `written` bytes of a text into a regular file,
    /// cuts them off again, so the file ends with the last complete text, never half a line that the next run
    /// would glue its first record onto. The corresponding C functions are `lseek(2)` and `ftruncate(2)`.
    private func cutBack(_ written: Int) {
        guard written > 0 else { return }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        let end = lseek(fileDescriptor, 0, SEEK_CUR)
        guard end >= written else { return }
        let start = end - off_t(written)
        if case .success = retryingOnInterrupt({ ftruncate(fileDescriptor, start) }) {
            _ = lseek(fileDescriptor, start, SEEK_SET)
        }
    }

    /// Waits until the output can take data (true), or a stop signal is pending (false): on ``interruptDescriptor``
    /// (the poll loop's signalfd) or on ``StopRequests``.
    private func waitUntilWritable() -> Bool {
        var entries = [pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)]
        for stop in [interruptDescriptor, StopRequests.descriptor].compactMap({ $0 }) {
            entries.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0))
        }
        while true {
            guard case .success = retryingOnInterrupt({ poll(&entries, nfds_t(entries.count), -1) }) else {
                return true
            }
            if entries[0].revents != 0 { return true }
            if entries.dropFirst().contains(where: { $0.revents != 0 }) { return false }
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
        if neverBlocks { return true }
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        guard case .success(let ready) = retryingOnInterrupt({ poll(&entry, 1, 0) }), ready == 1 else { return false }
        return entry.revents & Int16(POLLOUT) != 0
    }

    /// The size up to which ``canTakeSmallWrite`` promises a write will not block.
    public static let smallWriteLimit = Int(PIPE_BUF)

    /// Whether the descriptor is a terminal. The corresponding C function is `isatty(3)`.
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }
}

/// The outcome of an `open(2)` made on another thread.
private final class OpenResult: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Result<Int32, Errno>?

    func store(_ result: Result<Int32, Errno>) {
        lock.lock()
        value = result
        lock.unlock()
    }

    func load() -> Result<Int32, Errno>? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
