extension String {
    /// The text safe to show on a terminal: control characters (C0 but tab and newline, DEL, C1) become visible
    /// `\xNN` escapes. Device names come from the kernel and from recordings people send; an escape sequence in a
    /// name must not retitle the user's window or clear the screen. JSON and CSV escape their own way.
    public var forTerminal: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A name (a device's, a path) for one line a person reads: like ``forTerminal``, and tab and newline escaped
    /// too (`\x09`, `\x0a`), so a name cannot break the line it is on into something that looks like more output.
    public var forTerminalName: String {
        guard unicodeScalars.contains(where: { Self.isControl($0) || $0 == "\n" || $0 == "\t" }) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) || scalar == "\n" || scalar == "\t" {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0a && value != 0x09) || value == 0x7f || (0x80...0x9f).contains(value)
    }
}
