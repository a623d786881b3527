import Glibc

/// The few file-system and environment questions the CLI asks, Foundation-free (`FileManager` and `ProcessInfo`
/// loaded all of Foundation into a reader that needs none of it). The corresponding C functions are named on each.
public enum FileSystem {
    /// The value of the environment variable `name`, or nil. The corresponding C function is `getenv(3)`.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `$HOME`, else the home directory of the user running the process (`getpwuid_r(3)`), else `/`.
    public static var homeDirectory: String {
        if let home = environment("HOME"), !home.isEmpty { return home }
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil, let directory = entry.pw_dir
        {
            return String(cString: directory)
        }
        return "/"
    }

    /// Whether anything exists at `path` (following symbolic links). The corresponding C function is `stat(2)`.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` is a file this process may read. The corresponding C functions are `stat(2)` and
    /// `access(2)`.
    public static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return false }
        return access(path, R_OK) == 0
    }

    /// Creates the directory `path` and any missing parents, mode 0755 (less the umask).
    /// The corresponding C function is `mkdir(2)`.
    /// - Throws: ``OutputError`` with ``OutputError/Code/createFailed``, naming the directory that failed.
    public static func createDirectories(_ path: String) throws(OutputError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let error = errno
                guard error == EEXIST, isDirectory(prefix) else {
                    throw OutputError(code: .createFailed, name: prefix, function: "mkdir", errno: error)
                }
            }
            prefix += "/"
        }
    }

    /// Replaces `path` with `text` atomically: written to a new temporary file beside it (created with `O_EXCL`, so
    /// nothing planted there, a hard link or a symbolic link, is ever written through), flushed, then renamed over
    /// it, so a reader sees the old file or the new one, never half of one, and a failed or interrupted write (a
    /// full disk, a kill) leaves the old file as it was. Only a regular file (or nothing) is replaced: a FIFO, a
    /// device node, a directory or a socket at `path` is refused (``NotAFileError``) and left alone.
    /// The corresponding C functions are `lstat(2)`, `open(2)`, `write(2)`, `fsync(2)` and `rename(2)`.
    /// - Throws: ``NotAFileError``, or ``OutputError`` naming the path: ``OutputError/Code/createFailed`` or
    ///   ``OutputError/Code/writeFailed``.
    public static func replaceAtomically(_ path: String, with text: String) throws {
        if let conflict = OpenFiles.conflict(at: path) { throw SameFileError(path: path, reason: conflict) }
        if let kind = nonRegularKind(path) { throw NotAFileError(path: path, kind: kind) }
        let (temporary, writer) = try createTemporary(beside: path)
        do throws(OutputError) {
            try writer.write(text)
            if fsync(writer.fileDescriptor) != 0 {
                throw OutputError(code: .writeFailed, name: path, function: "fsync", errno: errno)
            }
        } catch {
            unlink(temporary)
            throw OutputError(code: error.code, name: path, function: error.function, errno: error.errno)
        }
        // Looked at again just before: what appeared meanwhile is not replaced either.
        if let kind = nonRegularKind(path) {
            unlink(temporary)
            throw NotAFileError(path: path, kind: kind)
        }
        if rename(temporary, path) != 0 {
            let error = errno
            unlink(temporary)
            throw OutputError(code: .createFailed, name: path, function: "rename", errno: error)
        }
    }

    /// What is at `path` when it is something other than a regular file or a symbolic link (which a rename
    /// replaces, never following it), named for a message; nil otherwise, or when nothing is there.
    public static func nonRegularKind(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        return type == S_IFREG || type == S_IFLNK ? nil : Files.kind(type)
    }

    /// Whether `path` is a FIFO (not following a symbolic link).
    public static func isFIFO(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    /// A new file beside `path` (`PATH.tmp-PID`, or `PATH.tmp-PID-N` when that name is taken), created with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`: always a file this call made, never one found there.
    /// With `readable`, it is opened for reading too (a spool).
    static func createTemporary(
        beside path: String,
        readable: Bool = false
    ) throws(OutputError) -> (String, FileDescriptorWriter) {
        var attempt = 0
        while true {
            let name = path + ".tmp-\(getpid())" + (attempt == 0 ? "" : "-\(attempt)")
            let flags = (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
            switch retryingOnInterrupt({ Glibc.open(name, flags, 0o644) }) {
            case .success(let fd):
                return (name, FileDescriptorWriter(fileDescriptor: fd, name: path, ownsDescriptor: true))
            case .failure(let error) where error.rawValue == EEXIST && attempt < 100:
                attempt += 1
            case .failure(let error):
                throw OutputError(code: .createFailed, name: path, function: "open", errno: error.rawValue)
            }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// Something that is not a regular file (a FIFO, a device node, a directory) where a file was to be written: refused,
/// and left as it is.
public struct NotAFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    /// `a FIFO`, `a character device`, `a directory`, ...
    public var kind: String

    public var description: String {
        "cannot write \(path): it is \(kind), and plumometer replaces only regular files. Choose a file name."
    }
}
