import PlumometerLinux

/// The live view's keys: `t` tares, `c` clears the tare, `q` quits. Read from the terminal in raw mode while the
/// live view is shown; one place for every command that shows it.
enum LiveKeys {
    /// Puts stdin in raw mode and watches it in `driver`; nil when stdin is not a terminal.
    static func attach(to driver: Driver, pipeline: @escaping () -> ReadingPipeline?) -> RawKeyboard? {
        guard let keyboard = RawKeyboard() else { return nil }
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
