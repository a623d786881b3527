import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A socket call that failed, with its errno.
public struct SocketError: Error, CustomStringConvertible {
    public var function: String
    public var errno: Int32
    public var description: String { function + ": " + String(cString: strerror(errno)) }
}

/// A TCP connection to 127.0.0.1, read with a timeout.
/// `@unchecked Sendable`: one thread uses it at a time (a test may hand it to a reading thread and look at it once
/// that thread is done).
public final class Socket: @unchecked Sendable {
    public let descriptor: Int32
    /// Whether the peer ended the connection (a read found its end).
    public private(set) var closed = false

    /// Connects to `port` on 127.0.0.1, with a receive buffer of `receiveBuffer` bytes when given (a small one makes
    /// a client that stops reading fill up soon).
    public init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(function: "socket", errno: errno) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw SocketError(function: "connect", errno: errno)
        }
    }

    deinit { close(descriptor) }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketError(function: "send", errno: errno)
        }
    }

    /// Reads until `marker` has arrived (or 10 s have passed, or the connection ended).
    public func receive(until marker: String) throws -> String {
        try receiveAll(timeout: 10, until: marker)
    }

    /// Reads until the connection ends, `marker` arrives or `timeout` seconds pass without it.
    public func receiveAll(timeout: Double, until marker: String? = nil) throws -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, left) > 0 else { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 {
                closed = true
                break
            }
            bytes += buffer[..<count]
            if let marker, String(decoding: bytes, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
