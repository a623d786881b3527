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

    /// Replaces `path` with `text` atomically: written to a temporary file beside it, flushed, then renamed over
    /// it, so a reader sees the old file or the new one, never half of one. The corresponding C functions are
    /// `open(2)`, `write(2)`, `fsync(2)` and `rename(2)`.
    /// - Throws: ``OutputError`` naming the path: ``OutputError/Code/createFailed`` or
    ///   ``OutputError/Code/writeFailed``.
    public static func replaceAtomically(_ path: String, with text: String) throws(OutputError) {
        let temporary = path + ".tmp-\(getpid())"
        do throws(OutputError) {
            let writer = try FileDescriptorWriter.create(temporary)
            try writer.write(text)
            if fsync(writer.fileDescriptor) != 0 {
                throw OutputError(code: .writeFailed, name: path, function: "fsync", errno: errno)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let error = errno
            unlink(temporary)
            throw OutputError(code: .createFailed, name: path, function: "rename", errno: error)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
