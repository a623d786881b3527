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
        if value < 0 { appendByte(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), minimumWidth: 1)
    }

    /// `value` rounded to `decimals` places (0...6): `31.6` for `(31.5789, 1)`; "0" for a value that is not
    /// finite, and Swift's shortest text beyond 9e15 units of the last place (no fixed-point text is exact there).
    mutating func append(fixed value: Double, decimals: Int) {
        let places = Swift.min(Swift.max(decimals, 0), 6)
        let factor = Self.powers[places]
        guard value.isFinite else {
            appendByte(UInt8(ascii: "0"))
            return
        }
        let scaled = (Swift.abs(value) * Double(factor)).rounded()
        guard scaled < 9.0e15 else {
            var text = String(value)
            text.withUTF8 { appendBytes($0) }
            return
        }
        let whole = UInt64(scaled)
        if value < 0 && whole != 0 { appendByte(UInt8(ascii: "-")) }
        appendDigits(whole / factor, minimumWidth: 1)
        if places > 0 {
            appendByte(UInt8(ascii: "."))
            appendDigits(whole % factor, minimumWidth: places)
        }
    }

    /// A kernel time as seconds with 6 decimals, exactly.
    mutating func append(seconds time: EventTime) {
        let microseconds = time.microseconds
        if microseconds < 0 { appendByte(UInt8(ascii: "-")) }
        appendDigits(microseconds.magnitude / 1_000_000, minimumWidth: 1)
        appendByte(UInt8(ascii: "."))
        appendDigits(microseconds.magnitude % 1_000_000, minimumWidth: 6)
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

    private static let powers: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` in decimal, left-padded with zeros to `minimumWidth` digits: the digits are counted, and written
    /// into their room from the right two at a time (from a table of the pairs 00 to 99), zeros before them.
    private mutating func appendDigits(_ value: UInt64, minimumWidth: Int) {
        var digits = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let width = Swift.max(digits, minimumWidth)
        reserve(width)
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let table = pairs.utf8Start
        var remaining = value
        var index = count + width
        while remaining >= 100 {
            let pair = Int(remaining % 100) &* 2
            remaining /= 100
            index &-= 2
            base[index] = table[pair]
            base[index &+ 1] = table[pair &+ 1]
        }
        if remaining >= 10 {
            let pair = Int(remaining) &* 2
            index &-= 2
            base[index] = table[pair]
            base[index &+ 1] = table[pair &+ 1]
        } else {
            index &-= 1
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
        }
        while index > count {
            index &-= 1
            base[index] = UInt8(ascii: "0")
        }
        count += width
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
