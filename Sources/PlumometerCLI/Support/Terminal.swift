import Glibc

/// Facts about the terminal, and its raw mode for the live view's single-key commands.
enum Terminal {
    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour only on a terminal and never when `NO_COLOR` is set (https://no-color.org).
    static var colourAllowed: Bool {
        if let noColour = getenv("NO_COLOR"), noColour.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isTerminal(STDOUT_FILENO)
    }

    /// Columns and rows of the terminal on `fd`, or 80x24 when unknown.
    static func size(of fd: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }
}

/// Puts a terminal into non-canonical, no-echo mode for single keystrokes, and restores it.
final class RawKeyboard {
    private let fd: Int32
    private var saved = termios()
    private var active = false

    init?(fd: Int32) {
        guard Terminal.isTerminal(fd), tcgetattr(fd, &saved) == 0 else { return nil }
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

    var fileDescriptor: Int32 { fd }

    /// The keys typed since the last call (non-blocking); nil once the terminal is gone (end of file, hang-up).
    func readKeys() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 64) }
        if count > 0 { return Array(buffer[0..<count]) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return [] }
        return nil
    }

    func restore() {
        guard active else { return }
        _ = tcsetattr(fd, TCSANOW, &saved)
        active = false
    }

    deinit { restore() }
}

/// The live view's keys: `t` tares, `c` clears the tare, `q` quits. Read from the terminal in raw mode while the
/// live view is shown; one place for every command that shows it.
enum LiveKeys {
    /// Puts stdin in raw mode and watches it in `driver`; nil when stdin is not a terminal.
    static func attach(to driver: Driver, pipeline: @escaping () -> ReadingPipeline?) -> RawKeyboard? {
        guard let keyboard = RawKeyboard(fd: STDIN_FILENO) else { return nil }
        var token: Int?
        token = driver.watch(keyboard.fileDescriptor) {
            guard let keys = keyboard.readKeys() else {
                // The terminal hung up: stop watching it, or poll would report it ready for ever.
                if let token { driver.unwatch(token) }
                return
            }
            for key in keys {
                switch key {
                case UInt8(ascii: "t"): pipeline()?.tare()
                case UInt8(ascii: "c"): pipeline()?.clearTare()
                case UInt8(ascii: "q"): driver.finish()
                default: break
                }
            }
        }
        return keyboard
    }
}
