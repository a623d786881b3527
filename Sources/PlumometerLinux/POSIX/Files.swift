import Glibc

/// Whole files, read or written at once. The corresponding C functions are `open(2)`, `read(2)` and `write(2)`.
public enum Files {
    /// The bytes of `path`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/readFailed``, naming the path (missing, unreadable, a
    ///   directory).
    public static func read(_ path: String) throws(OutputError) -> [UInt8] {
        let fd: Int32
        switch retryingOnInterrupt({ Glibc.open(path, O_RDONLY | O_CLOEXEC) }) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            throw OutputError(code: .readFailed, name: path, function: "open", errno: error.rawValue)
        }
        defer { closeDescriptor(fd) }
        // No limit: the bytes are always there.
        return try readToEnd(fd, path: path, limit: nil) ?? []
    }

    /// The bytes of `path`, a file expected to be small (a profile, a device description): read only when it is a
    /// regular file of at most `limit` bytes. Anything else is refused at once, before a byte is read: a FIFO or a
    /// device (`/dev/zero` is endless, a FIFO may never be written), a directory, a file larger than the limit (a
    /// sparse 10 GB file), or one that grows past it while being read. Opened `O_NONBLOCK`, so not even the open of
    /// a FIFO waits. The corresponding C functions are `open(2)`, `fstat(2)` and `read(2)`.
    /// - Throws: ``SmallFileError`` saying why, or ``OutputError`` (``OutputError/Code/readFailed``) when it cannot
    ///   be opened or read.
    public static func readSmall(_ path: String, limit: Int) throws -> [UInt8] {
        let fd: Int32
        switch retryingOnInterrupt({ Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            throw OutputError(code: .readFailed, name: path, function: "open", errno: error.rawValue)
        }
        defer { closeDescriptor(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw OutputError(code: .readFailed, name: path, function: "fstat", errno: errno)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw SmallFileError(path: path, problem: .notRegular(kind(type))) }
        guard status.st_size <= limit else {
            throw SmallFileError(path: path, problem: .tooLarge(size: Int64(status.st_size), limit: limit))
        }
        guard let bytes = try readToEnd(fd, path: path, limit: limit) else {
            throw SmallFileError(path: path, problem: .tooLarge(size: nil, limit: limit))
        }
        return bytes
    }

    /// Reads `fd` (the open file `path`) to its end, 64 KiB at a time.
    /// - Returns: the bytes, or nil as soon as more than `limit` bytes have been read (a file that grows while
    ///   ``readSmall(_:limit:)`` reads it).
    /// - Throws: ``OutputError`` (``OutputError/Code/readFailed``) when `read(2)` fails.
    private static func readToEnd(_ fd: Int32, path: String, limit: Int?) throws(OutputError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            switch result {
            case .success(0): return bytes
            case .success(let count):
                bytes.append(contentsOf: chunk[0..<count])
                if let limit, bytes.count > limit { return nil }
            case .failure(let error):
                throw OutputError(code: .readFailed, name: path, function: "read", errno: error.rawValue)
            }
        }
    }

    /// What a file type is called in a message.
    static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Writes `text` as the file `path`, by ``OutputFile``'s rule: a symbolic link is refused, a FIFO or a character
    /// device is written into (a FIFO's wait for its reader hears a stop signal and SIGHUP), a regular file is
    /// replaced atomically (the old file stays whole unless the new one is complete); a directory, a socket and one
    /// of this process's inputs are refused.
    /// - Throws: ``NotAFileError``, ``SameFileError``, or ``OutputError`` naming the path:
    ///   ``OutputError/Code/createFailed`` when it cannot be created, ``OutputError/Code/writeFailed`` when the
    ///   text does not fit, ``OutputError/Code/interrupted`` on a stop while a FIFO waits.
    public static func write(_ text: String, to path: String) throws {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            // Refused, as every output does: what a planted link points at is not ours to replace or write.
            throw OutputError(code: .createFailed, name: path, function: "open", errno: ELOOP)
        }
        try OutputFile.write(text, to: path)
    }
}

/// A file expected to be small that is not: what it is, or how large.
public struct SmallFileError: Error, CustomStringConvertible, Sendable {
    public enum Problem: Sendable {
        /// A FIFO, a device, a directory, a socket: named.
        case notRegular(String)
        /// Larger than the limit: the size from `fstat`, or nil when it grew past the limit while read.
        case tooLarge(size: Int64?, limit: Int)
    }

    public var path: String
    public var problem: Problem

    public var description: String {
        switch problem {
        case .notRegular(let kind):
            "\(path) is \(kind), not a regular file: give the path of a file"
        case .tooLarge(let size?, let limit):
            "\(path) is \(size) bytes, more than the \(limit) bytes such a file may have: give the right file"
        case .tooLarge(nil, let limit):
            "\(path) grew past \(limit) bytes while it was read: give a file that is not being written"
        }
    }
}
