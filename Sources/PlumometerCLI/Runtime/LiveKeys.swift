import PlumometerLinux

/// The live view's controls, in either case: `t` tares, `k` tares the one contact down as a carrier, `c` clears
/// the tare, `m` switches between the map and the bars, `q` quits (read from the terminal in raw mode); and a redraw
/// when the terminal is resized. One place for every command that shows the live view.
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
            for key in keys.map(lowercased) {
                switch key {
                case UInt8(ascii: "t"): try pipeline()?.tare()
                case UInt8(ascii: "k"): try pipeline()?.tareCarrier()
                case UInt8(ascii: "c"): try pipeline()?.clearTare()
                case UInt8(ascii: "q"): driver.finish()
                case UInt8(ascii: "m"): view.toggleView()
                default: break
                }
            }
        }
        return keyboard
    }

    /// An ASCII letter in lower case; any other byte as it is.
    static func lowercased(_ key: UInt8) -> UInt8 {
        key >= UInt8(ascii: "A") && key <= UInt8(ascii: "Z") ? key + 32 : key
    }
}
