/// Who may ask `plumometer serve` what: the refusals every request meets before it is routed.
///
/// - `Host` must name the listening address, a loopback name or address (`localhost`, `127.0.0.1`, `[::1]`) or,
///   listening on every address (`0.0.0.0`, `[::]`), any IP address, always with the listening port: a page of
///   another site whose name was made to resolve to this machine (DNS rebinding) sends its own name and is refused.
/// - A `POST` (tare, clear, carrier) needs an `Origin` equal to the page's own (`http://` and the request's `Host`):
///   another site's page cannot tare the scale, and a request without an `Origin` (not from a page) is refused too.
/// - Listening on an address other machines reach, a `POST` is answered for loopback clients only.
public struct ServePolicy: Sendable {
    public var address: ListenAddress

    public init(address: ListenAddress) { self.address = address }

    /// Why `request` is refused for the host it names (status 421 and a sentence), or nil when it may go on.
    public func hostRefusal(_ request: HTTPRequest) -> (status: Int, reason: String)? {
        guard let host = request.host, hostIsAllowed(host) else {
            return (
                421,
                "This server answers requests for \(address.host):\(address.port) or localhost only (Host: "
                    + (request.host ?? "none") + ")."
            )
        }
        return nil
    }

    /// Why a `POST` is refused (status 403 and a sentence), or nil when it may act: not from this machine while
    /// listening beyond it, or not from the page's own origin.
    public func postRefusal(_ request: HTTPRequest) -> (status: Int, reason: String)? {
        guard request.method == "POST" else { return nil }
        guard address.isLoopback || request.peerIsLoopback else {
            return (403, "Only this machine may tare or clear the scale.")
        }
        guard let origin = request.origin, let host = request.host,
            origin.lowercased() == "http://" + host.lowercased()
        else {
            return (403, "Tare, clear and carrier are taken from this server's own page only (Origin).")
        }
        return nil
    }

    /// Whether a `Host` header names this server: the port must be the listening one (80 when none is written).
    func hostIsAllowed(_ host: String) -> Bool {
        guard let (name, port) = Self.split(host: host.lowercased()), port == address.port else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name == address.host { return true }
        if name.hasPrefix("[") {
            guard let bytes = ListenAddress.ipv6(name.dropFirst().dropLast()) else { return false }
            return ListenAddress(bytes: bytes, port: port).isLoopback || address.isUnspecified
        }
        guard let bytes = ListenAddress.ipv4(Substring(name)) else { return false }
        return bytes[0] == 127 || address.isUnspecified
    }

    /// `name:port`, `[v6]:port`, or a name alone (port 80).
    static func split(host: String) -> (String, Int)? {
        var name = Substring(host)
        var port = 80
        if let bracket = host.lastIndex(of: "]") {
            let rest = host[host.index(after: bracket)...]
            name = host[...bracket]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            name = host[..<colon]
            port = number
        }
        guard !name.isEmpty, (0...65_535).contains(port) else { return nil }
        return (String(name), port)
    }
}

extension ListenAddress {
    /// `0.0.0.0` or `[::]`: every address of this machine.
    public var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }
}
