import PlumometerLinux

/// The live view's controls, in either case: `t` tares, `k` tares the one contact down as a carrier, `c` clears
/// the tare, `q` quits (read from the terminal in raw mode); and a redraw when the terminal is resized. One place for every command that shows the live view.
enum LiveKeys {
    /// With a live view: redraws it on SIGWINCH, puts stdin in raw mode and watches it in `driver`. Returns the
    /// keyboard to restore, or nil without a live view or when stdin is not a terminal.
    static func attach(
        _ view: LiveView?,
        to driver: Driver,
        pipeline: @escaping () -> ReadingPipeline?
    ) -> RawKeyboard? {
        guard let view else { return nil }
        driver.onResize = { view.resized() }
        guard let keyboard = RawKeyboard() else { return nil }
        var token: Int?
        token = driver.watch(keyboard.fileDescriptor) {
            guard let keys = keyboard.readKeys() else {
                // The terminal hung up: stop watching it, or poll would report it ready for ever.
                if let token { driver.unwatch(token) }
                return
            }
            for key in keys {
                // Either case: a user with Caps Lock on still gets the key.
                switch key | 0x20 {
                case UInt8(ascii: "t"): try pipeline()?.tare()
                case UInt8(ascii: "k"): try pipeline()?.tareCarrier()
                case UInt8(ascii: "c"): try pipeline()?.clearTare()
                case UInt8(ascii: "q"): driver.finish()
                default: break
                }
            }
        }
        return keyboard
    }
}
