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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            switch result {
            case .success(0): return bytes
            case .success(let count): bytes.append(contentsOf: chunk[0..<count])
            case .failure(let error):
                throw OutputError(code: .readFailed, name: path, function: "read", errno: error.rawValue)
            }
        }
    }

    /// Replaces `path` with `text`.
    /// - Throws: ``OutputError`` naming the path: ``OutputError/Code/createFailed`` when it cannot be created,
    ///   ``OutputError/Code/writeFailed`` when the text does not fit.
    public static func write(_ text: String, to path: String) throws(OutputError) {
        try FileDescriptorWriter.create(path).write(text)
    }
}
