import Glibc

/// Facts about the terminal, and its raw mode for the live view's single-key commands.
public enum Terminal {
    /// Colour only when `fd` is a terminal and `NO_COLOR` is not set (https://no-color.org); never for `TERM=dumb`.
    public static func colourAllowed(on fd: Int32) -> Bool {
        if let noColour = getenv("NO_COLOR"), noColour.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(fd) == 1
    }

    /// Columns and rows of the terminal on `fd`, or 80x24 when unknown. The C request is `TIOCGWINSZ`.
    public static func size(of fd: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : 24)
        }
        return (80, 24)
    }
}

/// Standard input in non-canonical, no-echo mode for single keystrokes, restored when done.
/// The corresponding C functions are `tcgetattr(3)` and `tcsetattr(3)`.
public final class RawKeyboard {
    private let fd: Int32
    private var saved = termios()
    private var active = false

    /// Switches standard input to raw mode; nil when it is not a terminal.
    public init?() {
        let fd = STDIN_FILENO
        guard isatty(fd) == 1, tcgetattr(fd, &saved) == 0 else { return nil }
        self.fd = fd
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        active = true
    }

    public var fileDescriptor: Int32 { fd }

    /// The keys typed since the last call (non-blocking); nil once the terminal is gone (end of file, hang-up).
    public func readKeys() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let result = buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { Glibc.read(fd, bytes.baseAddress, bytes.count) }
        }
        switch result {
        case .success(0): return nil
        case .success(let count): return Array(buffer[0..<count])
        case .failure(let error) where error.rawValue == EAGAIN: return []
        case .failure: return nil
        }
    }

    /// Restores the terminal's saved mode.
    public func restore() {
        guard active else { return }
        _ = tcsetattr(fd, TCSANOW, &saved)
        active = false
    }

    deinit { restore() }
}
