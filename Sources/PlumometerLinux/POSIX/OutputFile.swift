import Glibc

/// The files this process has open as inputs and outputs, by identity (device and inode), so that no output is ever
/// one of its open inputs, or another of its outputs, whatever the paths look like (`./x`, a hard link, standard input
/// redirected from the file).
///
/// A recording read as it arrives (``InputFile``, standard input included) is noted while it is open, an output
/// (``OutputFile``, ``FileDescriptorWriter/append(_:rotation:)``) while it is written; ``OutputFile`` looks here
/// before it writes a byte. (A small file read whole, a profile or a description, is compared by the commands before
/// anything is opened, as every path given is.) The corresponding C function is `fstat(2)`.
public enum OpenFiles {
    /// A file's identity: the `st_dev` and `st_ino` of `stat(2)`.
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    /// Guards the two tables: a writer may be released on its writer thread.
    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var inputs: [Identity: Int] = [:]
    nonisolated(unsafe) private static var outputs: [Identity: String] = [:]

    /// Notes the open descriptor `fd` as an input (a regular file or a FIFO: a device node is no file to write) until
    /// ``forgetInput(_:)``.
    static func noteInput(_ fd: Int32) -> Identity? {
        guard let identity = identity(of: fd) else { return nil }
        lock.lock()
        inputs[identity, default: 0] += 1
        lock.unlock()
        return identity
    }

    /// The input `identity` was closed.
    static func forgetInput(_ identity: Identity) {
        lock.lock()
        inputs[identity, default: 1] -= 1
        if inputs[identity] == 0 { inputs[identity] = nil }
        lock.unlock()
    }

    /// Notes the open descriptor `fd` as the output `name` (a regular file) until ``forgetOutput(_:)``.
    @discardableResult
    static func noteOutput(_ fd: Int32, name: String) -> Identity? {
        guard let identity = identity(of: fd) else { return nil }
        lock.lock()
        outputs[identity] = name
        lock.unlock()
        return identity
    }

    /// The output `identity` was closed.
    static func forgetOutput(_ identity: Identity) {
        lock.lock()
        outputs[identity] = nil
        lock.unlock()
    }

    /// Why `path` must not be written, when what is there now is an open input of this process or another of its
    /// outputs; nil otherwise (nothing there yet, or another file).
    static func conflict(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        lock.lock()
        defer { lock.unlock() }
        if inputs[identity] != nil { return "it is the recording this command reads" }
        if let other = outputs[identity] {
            return other == path ? "this command already writes it" : "this command already writes it as \(other)"
        }
        return nil
    }

    private static func identity(of fd: Int32) -> Identity? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `first` and `second` name the same file: the same identity when both exist, else the same path
    /// once each directory is resolved (`realpath(3)`), so `x` and `./x` are one file before either exists.
    public static func same(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        let firstExists = stat(first, &a) == 0
        let secondExists = stat(second, &b) == 0
        if firstExists || secondExists {
            return firstExists && secondExists && a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return canonical(first) == canonical(second)
    }

    private static func canonical(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(directory, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + name
    }
}

/// A file a command writes (`-o`, `--record`, `--save`): the one rule every writer follows.
///
/// Nothing is opened when it is made: the file is created on the first ``write(_:)``, which a command makes only once
/// its input has opened and its first record is ready, so a device that cannot be opened or a recording that breaks
/// at once leaves a file already there as it was. A regular file (or nothing) is then created or replaced
/// atomically: the first text goes to a temporary file beside it (`O_EXCL`, never a file found there), is flushed
/// (`fsync`) and renamed over the path, so the old file stays whole until the new one has its first record; later
/// texts are appended to the new file as they come. A FIFO or a character device (`/dev/null`) is written directly,
/// as it is: a FIFO's open waits for a reader, and SIGINT, SIGTERM and SIGHUP (the terminal closed) end that wait.
/// A symbolic link, a directory, a socket or a block device is refused, and so is a file that is one of this
/// process's inputs or outputs (``OpenFiles``). The corresponding C functions are `lstat(2)`, `open(2)`,
/// `write(2)`, `fsync(2)` and `rename(2)`.
///
/// A whole output (`whole`: a recording of several devices, assembled at its end) keeps writing to its temporary
/// file, renamed over the path only by ``finish()``: a kill or a full disk before then leaves the old file as it was.
public final class OutputFile {
    public let path: String
    private let whole: Bool
    private var writer: FileDescriptorWriter?
    /// A whole output's temporary file, until ``finish()`` renames it.
    private var temporary: String?
    /// What ``OpenFiles`` knows this file as, once made.
    private var identity: OpenFiles.Identity?

    /// An output at `path`; nothing is opened or checked yet.
    public init(_ path: String, whole: Bool = false) {
        self.path = path
        self.whole = whole
    }

    deinit {
        if let temporary { unlink(temporary) }
        if let identity { OpenFiles.forgetOutput(identity) }
    }

    /// Whether the file has been created (its first text written).
    public var isOpen: Bool { writer != nil }

    /// Writes `text`: on the first call, creates or replaces the file with it (see the type's discussion).
    /// - Throws: ``OutputError`` naming the path, or ``NotAFileError``; a failed first write leaves what was at the
    ///   path as it was.
    public func write(_ text: String) throws {
        if let writer {
            try writer.write(text)
            return
        }
        let (made, temporary) = try Self.create(path, first: text, renaming: !whole)
        writer = made
        self.temporary = temporary
        if temporary == nil { identity = OpenFiles.noteOutput(made.fileDescriptor, name: path) }
    }

    /// Flushes what was written to the disk (nothing for a FIFO or a device). The corresponding C function is
    /// `fsync(2)`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/writeFailed``.
    /// A whole output is renamed over its path here.
    /// - Throws: ``OutputError`` with ``OutputError/Code/writeFailed``, or what the rename meets
    ///   (``NotAFileError``, ``OutputError/Code/createFailed``).
    public func finish() throws {
        guard let writer, writer.neverBlocks else { return }
        var status = stat()
        guard fstat(writer.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        if fsync(writer.fileDescriptor) != 0 {
            throw OutputError(code: .writeFailed, name: path, function: "fsync", errno: errno)
        }
        if let temporary {
            self.temporary = nil
            try Self.rename(temporary, over: path)
            identity = OpenFiles.noteOutput(writer.fileDescriptor, name: path)
        }
    }

    /// Writes `text` as the whole of the file `path` (``write(_:)`` once, then ``finish()``).
    public static func write(_ text: String, to path: String) throws {
        let file = OutputFile(path)
        try file.write(text)
        try file.finish()
    }

    /// Opens `path` (see the type's discussion) and writes `text` there.
    /// - Returns: the writer, and the temporary file still to be renamed when not `renaming`.
    private static func create(
        _ path: String,
        first text: String,
        renaming: Bool
    ) throws -> (FileDescriptorWriter, String?) {
        if let conflict = OpenFiles.conflict(at: path) {
            throw SameFileError(path: path, reason: conflict)
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                // A file of another user is not replaced (in a shared directory it is theirs, not ours to delete).
                guard status.st_uid == geteuid() else {
                    throw OutputError(code: .createFailed, name: path, function: "fstat", errno: EPERM)
                }
            case S_IFLNK:
                throw OutputError(code: .createFailed, name: path, function: "open", errno: ELOOP)
            case S_IFCHR where Self.major(UInt64(status.st_rdev)) == 13:
                // An input device node (major 13, evdev): writing it would inject events, never store a file.
                throw NotAFileError(path: path, kind: "an input device")
            case S_IFIFO, S_IFCHR:
                let writer = try FileDescriptorWriter.openDirect(path)
                try writer.write(text)
                return (writer, nil)
            default:
                throw NotAFileError(path: path, kind: Files.kind(status.st_mode & S_IFMT))
            }
        }
        let (temporary, writer) = try FileSystem.createTemporary(beside: path)
        do throws(OutputError) {
            try writer.write(text)
            if renaming, fsync(writer.fileDescriptor) != 0 {
                throw OutputError(code: .writeFailed, name: path, function: "fsync", errno: errno)
            }
        } catch {
            unlink(temporary)
            throw OutputError(code: error.code, name: path, function: error.function, errno: error.errno)
        }
        guard renaming else { return (writer, temporary) }
        try rename(temporary, over: path)
        return (writer, nil)
    }

    /// The major number of the device `number` (glibc's `major(3)`, a macro Swift cannot import).
    private static func major(_ number: UInt64) -> UInt64 {
        ((number >> 8) & 0xfff) | ((number >> 32) & ~0xfff)
    }

    /// Renames the flushed `temporary` over `path`, unless something other than a file appeared there meanwhile.
    private static func rename(_ temporary: String, over path: String) throws {
        if let kind = FileSystem.nonRegularKind(path) {
            unlink(temporary)
            throw NotAFileError(path: path, kind: kind)
        }
        if let conflict = OpenFiles.conflict(at: path) {
            unlink(temporary)
            throw SameFileError(path: path, reason: conflict)
        }
        if Glibc.rename(temporary, path) != 0 {
            let error = errno
            unlink(temporary)
            throw OutputError(code: .createFailed, name: path, function: "rename", errno: error)
        }
    }
}

/// Text kept in a file no one else sees (made beside the output, removed from its directory at once), read back in
/// order at the end: what a recording of several devices holds per device until it is assembled, on the disk, not
/// in memory. The corresponding C functions are `open(2)`, `unlink(2)`, `write(2)` and `pread(2)`.
public final class SpoolFile {
    private let writer: FileDescriptorWriter
    private var size: off_t = 0

    /// A spool beside `path`.
    /// - Throws: ``OutputError`` naming `path` when it cannot be made.
    public init(beside path: String) throws(OutputError) {
        let (temporary, writer) = try FileSystem.createTemporary(beside: path, readable: true)
        unlink(temporary)
        self.writer = writer
    }

    /// Appends `text`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/writeFailed`` (a full disk).
    public func write(_ text: String) throws(OutputError) {
        try writer.write(text)
        size += off_t(text.utf8.count)
    }

    /// Hands back what was written, 64 KiB or so at a time, each piece ending at a line's end.
    /// - Throws: ``OutputError`` with ``OutputError/Code/readFailed``, or what `body` throws.
    public func readBack(_ body: (String) throws -> Void) throws {
        var offset: off_t = 0
        var carried: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while offset < size {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { pread(writer.fileDescriptor, buffer.baseAddress, buffer.count, offset) }
            }
            guard case .success(let read) = count, read > 0 else {
                let code = if case .failure(let error) = count { error.rawValue } else { EIO }
                throw OutputError(code: .readFailed, name: writer.name, function: "pread", errno: code)
            }
            offset += off_t(read)
            carried += chunk[0..<read]
            if let end = carried.lastIndex(of: UInt8(ascii: "\n")) {
                try body(String(decoding: carried[...end], as: UTF8.self))
                carried.removeSubrange(...end)
            }
        }
        if !carried.isEmpty { try body(String(decoding: carried, as: UTF8.self)) }
    }
}

/// An output that is one of the command's inputs, or another of its outputs: refused before a byte is written.
public struct SameFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    /// `it is one of this command's inputs`, ...
    public var reason: String

    public var description: String {
        "cannot write \(path): \(reason), and writing it would destroy what is read. Choose another file."
    }
}
