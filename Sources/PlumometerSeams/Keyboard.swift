/// Standard input in raw mode, key by key, for the live view's single-key commands (the bridge's `RawKeyboard`, the
/// test kit's keys typed by the test). Signals stay the terminal's: Ctrl-C and Ctrl-Z still reach the process.
public protocol Keyboard: AnyObject {
    /// The descriptor to watch for keys.
    var fileDescriptor: Int32 { get }
    /// Whether no more keys can come: an end of file or a hang-up, or the terminal's end-of-file key (Ctrl-D).
    var hasEnded: Bool { get }
    /// The keys typed since the last call, never waiting; nil once the terminal is gone (end of file, hang-up).
    func readKeys() -> [UInt8]?
    /// Switches to raw mode (again, after ``restore()``); false when the terminal refuses.
    @discardableResult
    func enter() -> Bool
    /// Gives the terminal its mode back.
    func restore()
}
