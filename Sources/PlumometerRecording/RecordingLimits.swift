/// The bounds every recording reader keeps, whatever the input: each one is far above what `evemu-record` and
/// `libinput record` write, and each one turns an input that would exhaust the stack, the memory or the time into
/// a ``RecordingError`` naming the file, the line and the limit.
///
/// | limit | value | what real files hold |
/// |---|---|---|
/// | ``maximumNesting`` | 32 | 6 levels (`devices` → device → `evdev` → `absinfo` → axis → `[min, max, ...]`) |
/// | ``maximumLineLength`` | 1 MiB | a few KiB (a HID report descriptor of at most 4096 bytes, written as numbers) |
/// | ``maximumScalarLength`` | 64 KiB | under 300 bytes (names, udev properties, quirks) |
/// | ``maximumListLength`` | 65,536 | 768 codes of `EV_KEY`, 4096 bytes of a report descriptor |
/// | ``maximumDeviceCount`` | 128 | the devices of one machine (`libinput record --all`): a few dozen |
///
/// The parser of `libinput record` files recurses once per level of nesting: without the first limit, 80 KB of
/// `[[[…]]]` overflowed the stack.
public enum RecordingLimits {
    /// The deepest nesting of lists and mappings, block and flow together.
    public static let maximumNesting = 32
    /// The longest line, in bytes.
    public static let maximumLineLength = LineScanner.defaultMaximumLineLength
    /// The longest scalar (a name, a number, a quoted string), in bytes.
    public static let maximumScalarLength = 64 << 10
    /// The most items in one list or entries in one mapping (a recording's events are read one at a time and are
    /// not limited).
    public static let maximumListLength = 1 << 16
    /// The most devices in one `libinput record` file.
    public static let maximumDeviceCount = 128
}
