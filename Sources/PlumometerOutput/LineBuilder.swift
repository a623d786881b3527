import PlumometerCore

/// An output line built as UTF-8 bytes, for the per-frame hot path: at 1 kHz with 16 contacts a frame is ~4 KB of
/// JSON, and building it from `String` pieces (each number a temporary `String`) cost more than everything else the
/// reader does. Numbers are written digit by digit into one reserved buffer; the line becomes a `String` once.
struct LineBuilder {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Literal ASCII text (keys, punctuation).
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A signed whole number in decimal.
    mutating func append<Number: BinaryInteger>(integer value: Number) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), minimumWidth: 1)
    }

    /// `value` rounded to `decimals` places (0...6): `31.6` for `(31.5789, 1)`; "0" for a value that is not
    /// finite, and Swift's shortest text beyond 9e15 units of the last place (no fixed-point text is exact there).
    mutating func append(fixed value: Double, decimals: Int) {
        let places = Swift.min(Swift.max(decimals, 0), 6)
        let factor = Self.powers[places]
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let scaled = (Swift.abs(value) * Double(factor)).rounded()
        guard scaled < 9.0e15 else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        let whole = UInt64(scaled)
        if value < 0 && whole != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(whole / factor, minimumWidth: 1)
        if places > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(whole % factor, minimumWidth: places)
        }
    }

    /// A kernel time as seconds with 6 decimals, exactly.
    mutating func append(seconds time: EventTime) {
        let microseconds = time.microseconds
        if microseconds < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(microseconds.magnitude / 1_000_000, minimumWidth: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(microseconds.magnitude % 1_000_000, minimumWidth: 6)
    }

    /// `text` as a JSON string literal, quotes included (escaped like ``JSONText/string(_:)``).
    mutating func append(jsonString text: String) {
        bytes.append(UInt8(ascii: "\""))
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5c || byte == 0x7f {
            needsEscaping = true
            break
        }
        if needsEscaping {
            for byte in JSONText.string(text).utf8.dropFirst().dropLast() { bytes.append(byte) }
        } else {
            bytes.append(contentsOf: text.utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The line as a `String`.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    private static let powers: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` in decimal, left-padded with zeros to `minimumWidth` digits: the digits are counted, the room
    /// appended as zeros, and the digits written into it from the right.
    private mutating func appendDigits(_ value: UInt64, minimumWidth: Int) {
        var count = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        let width = Swift.max(count, minimumWidth)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var remaining = value
            var index = start + width - 1
            while remaining > 0 {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
                index -= 1
            }
        }
    }
}
