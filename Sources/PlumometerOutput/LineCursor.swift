import PlumometerCore

/// A write position in memory that a line is written into from start to end, with no checks: the caller
/// reserves room for the longest text it can write first (``LineCursor/write(capacity:_:)``).
///
/// The JSON frame line is the per-frame hot path (~3 KB at 16 contacts, ~200 literals and ~130 numbers).
/// ``LineBuilder`` checks its capacity on every append and copies the finished line into a `String`; here the
/// line is written straight into the `String`'s own storage, sized once for the longest line the reading can
/// make, and numbers of a fixed number of places are written digit by digit without counting them first.
/// ``LineBuilder`` writes its numbers with a cursor too, so every record's numbers are the same text
/// (NumberFormattingTests checks them against a plain `String` rendering of the rule).
struct LineCursor {
    /// Where the next byte goes.
    private(set) var position: UnsafeMutablePointer<UInt8>

    /// The longest text ``write(fixed:places:)`` writes: Swift's shortest text of a `Double` beyond 9e15 units
    /// of the last place (`-1.7976931348623157e+308` is 24 bytes), else 16 digits, a sign and a point.
    static let longestFixed = 32
    /// The longest text ``write(integer:)`` writes: `Int.min` (20 bytes).
    static let longestInteger = 20
    /// The longest text ``write(seconds:)`` writes: a sign, 13 digits of whole seconds, a point and 6 decimals.
    static let longestSeconds = 21

    /// A `String` of at most `capacity` bytes written by `body` with a cursor, in one allocation.
    static func write(capacity: Int, _ body: (inout LineCursor) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var cursor = LineCursor(position: buffer.baseAddress!)
            body(&cursor)
            let written = buffer.baseAddress!.distance(to: cursor.position)
            precondition(written <= capacity, "LineCursor wrote \(written) bytes into room for \(capacity)")
            return written
        }
    }

    /// Literal ASCII text (keys, punctuation).
    @inline(__always)
    mutating func write(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        position.update(from: text.utf8Start, count: count)
        position += count
    }

    /// One byte.
    @inline(__always)
    mutating func write(byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    /// UTF-8 bytes.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        position.update(from: start, count: bytes.count)
        position += bytes.count
    }

    /// A signed whole number in decimal.
    @inline(__always)
    mutating func write<Number: BinaryInteger>(integer value: Number) {
        if value < 0 { write(byte: UInt8(ascii: "-")) }
        writeDigits(UInt64(value.magnitude))
    }

    /// A kernel time as seconds with 6 decimals, exactly.
    mutating func write(seconds time: EventTime) {
        let microseconds = time.microseconds
        if microseconds < 0 { write(byte: UInt8(ascii: "-")) }
        writeDigits(microseconds.magnitude / 1_000_000)
        write(byte: UInt8(ascii: "."))
        writePlaces(microseconds.magnitude % 1_000_000, places: 6)
    }

    /// `value` rounded to `places` decimals (0...6; 1, 2 and 4 in the frame line), the text of
    /// ``LineBuilder/append(fixed:decimals:)``: "0" for a value that is not finite, and Swift's shortest text
    /// beyond 9e15 units of the last place.
    mutating func write(fixed value: Double, places: Int) {
        // Each count of places gets its own copy with a constant factor: dividing by a constant is a multiply,
        // dividing by a variable a `div` of ~40 cycles, twice per number.
        switch places {
        case ...0: writeFixed(value, factor: 1, places: 0)
        case 1: writeFixed(value, factor: 10, places: 1)
        case 2: writeFixed(value, factor: 100, places: 2)
        case 3: writeFixed(value, factor: 1_000, places: 3)
        case 4: writeFixed(value, factor: 10_000, places: 4)
        case 5: writeFixed(value, factor: 100_000, places: 5)
        default: writeFixed(value, factor: 1_000_000, places: 6)
        }
    }

    @inline(__always)
    private mutating func writeFixed(_ value: Double, factor: UInt64, places: Int) {
        guard value.isFinite else {
            write(byte: UInt8(ascii: "0"))
            return
        }
        // `(|value| * factor).rounded()` (half away from zero) without libm's `round`: below 9e15 the product's
        // whole part converts exactly and its fraction is exact, so the two agree to the bit.
        let product = Swift.abs(value) * Double(factor)
        var whole: UInt64 = 0
        if product < 9.0e15 {
            whole = UInt64(product)
            if product - Double(whole) >= 0.5 { whole += 1 }
        }
        guard product < 9.0e15, whole < 9_000_000_000_000_000 else {
            var text = String(value)
            text.withUTF8 { write($0) }
            return
        }
        if value < 0 && whole != 0 { write(byte: UInt8(ascii: "-")) }
        writeDigits(whole / factor)
        if places > 0 {
            write(byte: UInt8(ascii: "."))
            writePlaces(whole % factor, places: places)
        }
    }

    /// The pairs "00" to "99", for writing two digits at a time.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `value` in decimal, as few digits as it takes (one or two without counting them: most numbers here are
    /// small).
    @inline(__always)
    private mutating func writeDigits(_ value: UInt64) {
        if value < 10 {
            write(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        let table = Self.pairs.utf8Start
        if value < 100 {
            let pair = Int(value) &* 2
            position[0] = table[pair]
            position[1] = table[pair &+ 1]
            position += 2
            return
        }
        var digits = 3
        var probe = value / 1_000
        while probe > 0 {
            probe /= 10
            digits &+= 1
        }
        writePlaces(value, places: digits)
    }

    /// The last `places` decimal digits of `value`, zeros in front: written from the right, two at a time.
    @inline(__always)
    private mutating func writePlaces(_ value: UInt64, places: Int) {
        let table = Self.pairs.utf8Start
        var remaining = value
        var index = places
        while index >= 2 {
            let pair = Int(remaining % 100) &* 2
            remaining /= 100
            index &-= 2
            position[index] = table[pair]
            position[index &+ 1] = table[pair &+ 1]
        }
        if index == 1 {
            position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
        }
        position += places
    }
}
