import PlumometerSession

/// The live view's controls, in either case: `t` tares, `k` tares the one contact down as a carrier, `c` clears
/// the tare, `m` switches between the map and the bars, `q` quits (read from the terminal in raw mode); a redraw
/// when the terminal is resized; Ctrl-Z gives the terminal back before the process stops, and `fg` takes it again.
/// One place for every command that shows the live view.
///
/// At the end of a recording (`holdAtEnd`) the last frame stays on screen, `end of recording, q to quit`, until `q`,
/// Ctrl-C, SIGTERM or SIGHUP, but only while someone can press that key: not when standard input is not a terminal,
/// has reached its end (Ctrl-D, which is also what `script` sends when its own input ends) or hangs up.
enum LiveKeys {
    /// With a live view: redraws it on SIGWINCH, puts stdin in raw mode (the runtime's ``Keyboard``) and watches it
    /// in `loop`, and takes the job-control signals. Returns the keyboard to restore, or nil without a live view or
    /// when stdin is not a terminal.
    /// - Parameter holdAtEnd: the source is a recording: when it ends, hold its last frame until a key.
    static func attach(
        _ view: LiveView?,
        to loop: any EventLoop,
        holdAtEnd: Bool = false,
        pipeline: @escaping () -> ReadingPipeline?
    ) -> (any Keyboard)? {
        guard let view else { return nil }
        loop.onResize = { view.resized() }
        let keyboard = Runtime.current.makeKeyboard()
        // Also without a keyboard (stdin not a terminal) the view owns the screen it must give back.
        takeJobControl(view, keyboard: keyboard, loop: loop)
        guard let keyboard else { return nil }
        var holding = false
        var token: Int?
        // `unowned`: the loop holds this closure; a strong reference made a cycle that kept the loop, and the
        // session it ran, alive past the run (AddressSanitizer's leak check, docs/testing.md).
        token = loop.watch(keyboard.fileDescriptor) { [unowned loop] in
            let keys = keyboard.readKeys()
            for key in (keys ?? []).map(lowercased) {
                switch key {
                case UInt8(ascii: "t") where !holding: try pipeline()?.tare()
                case UInt8(ascii: "k") where !holding: try pipeline()?.tareCarrier()
                case UInt8(ascii: "c") where !holding: try pipeline()?.clearTare()
                case UInt8(ascii: "q"): loop.finish()
                case UInt8(ascii: "m"): view.toggleView()
                default: break
                }
            }
            // The terminal hung up: stop watching it, or poll would report it ready for ever.
            if keys == nil, let token { loop.unwatch(token) }
            // Nobody is left to press q.
            if holding && keyboard.hasEnded { loop.finish() }
        }
        guard holdAtEnd else { return keyboard }
        loop.atEnd = { [unowned loop] in
            guard !keyboard.hasEnded else { return nil }
            holding = true
            view.holdLastFrame()
            // A terminal closing sends SIGHUP: it ends the wait like q.
            loop.onHangup = { [unowned loop] in loop.finish() }
            return {
                let now = MonotonicClock.now()
                try view.idle(now: now)
                return .within(view.idleDeadline(now: now))
            }
        }
        return keyboard
    }

    /// Ctrl-Z and `fg` for the live view: the screen and the keyboard's mode given back before the stop, taken again
    /// after it.
    private static func takeJobControl(_ view: LiveView, keyboard: (any Keyboard)?, loop: any EventLoop) {
        do {
            try loop.handleJobControl(
                suspend: {
                    view.suspend()
                    keyboard?.restore()
                },
                resume: {
                    keyboard?.enter()
                    try view.resume()
                }
            )
        } catch {
            // Only when the signalfd cannot take two more signals (ENOMEM): Ctrl-Z then stops the process as it
            // would any other, in the alternate screen; everything else works.
            Diagnostics.note("Ctrl-Z will leave the terminal as the live view set it: \(error)")
        }
    }

    /// An ASCII letter in lower case; any other byte as it is.
    static func lowercased(_ key: UInt8) -> UInt8 {
        key >= UInt8(ascii: "A") && key <= UInt8(ascii: "Z") ? key + 32 : key
    }
}
