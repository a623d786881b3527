import PlumometerCore

/// An output line built as UTF-8 bytes, for the per-frame hot path: at 1 kHz with 16 contacts a frame is ~4 KB of
/// JSON, and building it from `String` pieces (each number a temporary `String`) cost more than everything else the
/// reader does. Numbers are written digit by digit into one reserved buffer; the line becomes a `String` once.
///
/// The bytes live in one buffer of its own rather than an `[UInt8]`: a 16-contact frame appends ~195 literals and
/// ~130 digit runs, and `Array.append(contentsOf:)` (uniqueness and capacity checks, a generic copy) cost about 100
/// instructions each (callgrind, docs/performance.md); here a literal is one capacity check and a copy, and digits
/// are written in place two at a time. Not copyable, so the buffer has exactly one owner.
struct LineBuilder: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 32)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Literal ASCII text (keys, punctuation).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { appendBytes($0) }
    }

    /// A signed whole number in decimal.
    mutating func append<Number: BinaryInteger>(integer value: Number) {
        write(room: LineCursor.longestInteger) { $0.write(integer: value) }
    }

    /// `value` rounded to `decimals` places (0...6): `31.6` for `(31.5789, 1)`; "0" for a value that is not
    /// finite, and Swift's shortest text beyond 9e15 units of the last place (no fixed-point text is exact there).
    mutating func append(fixed value: Double, decimals: Int) {
        write(room: LineCursor.longestFixed) { $0.write(fixed: value, places: decimals) }
    }

    /// A kernel time as seconds with 6 decimals, exactly.
    mutating func append(seconds time: EventTime) {
        write(room: LineCursor.longestSeconds) { $0.write(seconds: time) }
    }

    /// `text` as a JSON string literal, quotes included (escaped like ``JSONText/string(_:)``).
    mutating func append(jsonString text: String) {
        appendByte(UInt8(ascii: "\""))
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5c || byte == 0x7f {
            needsEscaping = true
            break
        }
        if needsEscaping {
            for byte in JSONText.string(text).utf8.dropFirst().dropLast() { appendByte(byte) }
        } else {
            var text = text
            text.withUTF8 { appendBytes($0) }
        }
        appendByte(UInt8(ascii: "\""))
    }

    /// The line as a `String`.
    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Numbers are written by the frame line's ``LineCursor`` (one number writer for every record): room for the
    /// longest text first, then the cursor writes at the end of the line.
    @inline(__always)
    private mutating func write(room longest: Int, _ body: (inout LineCursor) -> Void) {
        reserve(longest)
        var cursor = LineCursor(position: base + count)
        body(&cursor)
        count = base.distance(to: cursor.position)
    }

    /// One byte.
    @inline(__always)
    private mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// A run of bytes.
    @inline(__always)
    private mutating func appendBytes(_ run: UnsafeBufferPointer<UInt8>) {
        guard let start = run.baseAddress else { return }
        reserve(run.count)
        (base + count).initialize(from: start, count: run.count)
        count &+= run.count
    }

    /// Room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(to: count + extra) }
    }

    /// A larger buffer, at least twice the size, holding the bytes so far.
    private mutating func grow(to needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
