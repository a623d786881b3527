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
///
/// Signals stay on (`ISIG`): Ctrl-C and Ctrl-Z reach the process as SIGINT and SIGTSTP from the terminal itself,
/// so they work whatever the program is doing. The corresponding C functions are `tcgetattr(3)` and `tcsetattr(3)`.
public final class RawKeyboard {
    private let fd: Int32
    private var saved = termios()
    private var active = false
    /// How many of the bytes still to read were typed before raw mode began, in line mode, where an end of file
    /// (Ctrl-D) is kept as a NUL byte.
    private var typedAhead = 0
    /// Whether the keyboard has said that no more input comes: an end of file or a hang-up (``readKeys()`` returned
    /// nil), or the terminal's end-of-file key (Ctrl-D, which raw mode passes as a byte, and which `script` sends
    /// when its own input ends). Keys typed after a Ctrl-D are still read.
    public private(set) var hasEnded = false

    /// Switches standard input to raw mode; nil when it is not a terminal.
    public init?() {
        fd = STDIN_FILENO
        guard isatty(fd) == 1, enter() else { return nil }
    }

    public var fileDescriptor: Int32 { fd }

    /// Switches to raw mode (again, after ``restore()``: the mode to restore is read anew, since the shell may have
    /// changed it while the process was stopped); false when the terminal refuses.
    ///
    /// From a background process group the terminal stops the process (SIGTTOU) until it is in the foreground
    /// again, as for any program that sets the terminal's mode.
    @discardableResult
    public func enter() -> Bool {
        if !active {
            guard tcgetattr(fd, &saved) == 0 else { return false }
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard case .success = retryingOnInterrupt({ tcsetattr(fd, TCSANOW, &raw) }) else { return false }
        active = true
        var pending: Int32 = 0
        typedAhead = ioctl(fd, UInt(FIONREAD), &pending) == 0 ? Int(pending) : 0
        return true
    }

    /// The keys typed since the last call (non-blocking), without end-of-file marks (which set ``hasEnded``); nil
    /// once the terminal is gone (end of file, hang-up).
    public func readKeys() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let result = buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { Glibc.read(fd, bytes.baseAddress, bytes.count) }
        }
        switch result {
        case .success(0):
            hasEnded = true
            return nil
        case .success(let count):
            return keys(buffer[0..<count])
        case .failure(let error) where error.rawValue == EAGAIN:
            return []
        case .failure:
            hasEnded = true
            return nil
        }
    }

    /// `bytes` without the marks of an end of file: the terminal's end-of-file character, and a NUL among the bytes
    /// typed before raw mode began.
    private func keys(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let endOfFile = withUnsafeBytes(of: saved.c_cc) { $0[Int(VEOF)] }
        var keys: [UInt8] = []
        for byte in bytes {
            let typedInLineMode = typedAhead > 0
            typedAhead -= typedInLineMode ? 1 : 0
            if (byte == endOfFile && endOfFile != 0) || (byte == 0 && typedInLineMode) {
                hasEnded = true
            } else {
                keys.append(byte)
            }
        }
        return keys
    }

    /// Restores the terminal's saved mode.
    public func restore() {
        guard active else { return }
        _ = tcsetattr(fd, TCSANOW, &saved)
        active = false
    }

    deinit { restore() }
}
