/// A calibration profile as JSON, read and written without Foundation: `JSONDecoder` and `JSONEncoder` made the
/// reading path load all of Foundation (~4 ms of start-up and ~8 MB of memory, docs/performance.md) for one small
/// file. The text is what `JSONEncoder` with `.prettyPrinted` and `.sortedKeys` writes, and either reads the
/// other's files: the keys are ``Calibration/CodingKeys`` and those of the synthesized `Codable` of
/// ``DeviceIdentity``, ``AxisInfo`` and ``CalibrationPoint``.
extension Calibration {
    /// Reads a profile from its JSON bytes, refusing what ``validate()`` refuses.
    /// - Throws: ``CalibrationJSONError`` saying what is wrong and where.
    public init(json bytes: [UInt8]) throws(CalibrationJSONError) {
        var parser = JSONParser(bytes: bytes)
        let root = try parser.document()
        let device = try root.member("device")
        let range = try root.member("pressureRange")
        let points = try root.member("points").array("points").map { (value) throws(CalibrationJSONError) in
            CalibrationPoint(pressure: try value.member("pressure").double(), grams: try value.member("grams").double())
        }
        let gradeText = try root.member("grade").string()
        guard let grade = CalibrationGrade(rawValue: gradeText) else {
            throw CalibrationJSONError("'grade' is '\(gradeText)', not one of good, acceptable, unchecked")
        }
        // Keys added later; a profile saved before them is a direct calibration of a force-sensing device.
        var basis = CalibrationBasis.direct
        if let basisText = try root.optionalMember("basis")?.string() {
            guard let known = CalibrationBasis(rawValue: basisText) else {
                throw CalibrationJSONError("'basis' is '\(basisText)', not one of direct, carrier")
            }
            basis = known
        }
        self.init(
            device: DeviceIdentity(
                bus: try device.member("bus").integer(),
                vendor: try device.member("vendor").integer(),
                product: try device.member("product").integer(),
                version: try device.member("version").integer(),
                name: try device.member("name").string()
            ),
            pressureRange: AxisInfo(
                minimum: try range.member("minimum").integer(),
                maximum: try range.member("maximum").integer(),
                fuzz: try range.member("fuzz").integer(),
                flat: try range.member("flat").integer(),
                resolution: try range.member("resolution").integer()
            ),
            slope: try root.member("slope").double(),
            intercept: try root.member("intercept").double(),
            rSquared: try root.member("rSquared").double(),
            points: points,
            residuals: try root.member("residuals").array("residuals").map { (value) throws(CalibrationJSONError) in
                try value.double()
            },
            grade: grade,
            basis: basis,
            carrierGrams: try root.optionalMember("carrierGrams")?.double(),
            measuresContactArea: try root.optionalMember("contactArea")?.bool() ?? false
        )
        do {
            try validate()
        } catch {
            throw CalibrationJSONError(error.description)
        }
    }

    /// The `made` date a profile file keeps beside the calibration's keys (ISO 8601), or nil when it has none or
    /// the bytes are not a JSON object.
    public static func madeDate(inJSON bytes: [UInt8]) -> String? {
        var parser = JSONParser(bytes: bytes)
        guard let root = try? parser.document(), let made = try? root.member("made").string() else { return nil }
        return made
    }

    /// The profile as pretty-printed JSON with sorted keys, ending in a newline; with `made`, the date the profile
    /// was made is kept beside the calibration's keys.
    /// - Throws: ``CalibrationJSONError`` when a number is not finite (JSON has no text for it).
    public func jsonText(made: String? = nil) throws(CalibrationJSONError) -> String {
        let points = try points.map { (point) throws(CalibrationJSONError) in
            JSONValue.object([("grams", try .finite(point.grams)), ("pressure", try .finite(point.pressure))])
        }
        let identity = JSONValue.object([
            ("bus", .number(String(device.bus))), ("name", .string(device.name)),
            ("product", .number(String(device.product))), ("vendor", .number(String(device.vendor))),
            ("version", .number(String(device.version))),
        ])
        let range = JSONValue.object([
            ("flat", .number(String(pressureRange.flat))), ("fuzz", .number(String(pressureRange.fuzz))),
            ("maximum", .number(String(pressureRange.maximum))), ("minimum", .number(String(pressureRange.minimum))),
            ("resolution", .number(String(pressureRange.resolution))),
        ])
        // Sorted by UTF-8 bytes, as `.sortedKeys` sorts; `carrierGrams` only when there is one, as `JSONEncoder`
        // leaves out a nil optional.
        var members: [(String, JSONValue)] = [("basis", .string(basis.rawValue))]
        if let carrierGrams { members.append(("carrierGrams", try .finite(carrierGrams))) }
        members += [
            ("contactArea", .bool(measuresContactArea)), ("device", identity), ("grade", .string(grade.rawValue)),
            ("intercept", try .finite(intercept)),
        ]
        if let made { members.append(("made", .string(made))) }
        let root = JSONValue.object(
            members + [
                ("points", .array(points)), ("pressureRange", range),
                // Sorted by UTF-8 bytes, as `.sortedKeys` sorts: "rSquared" before "residuals".
                ("rSquared", try .finite(rSquared)),
                ("residuals", .array(try residuals.map { (value) throws(CalibrationJSONError) in try .finite(value) })),
                ("slope", try .finite(slope)),
            ]
        )
        var text = ""
        root.write(to: &text, indent: 0)
        return text + "\n"
    }
}

/// Why a profile's JSON was refused: a sentence naming what and where (`offset 57`, `'slope'`).
public struct CalibrationJSONError: Error, CustomStringConvertible, Sendable, Hashable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A parsed JSON value; members keep their order.
enum JSONValue {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    /// The number's text as written, converted when its type is known.
    case number(String)
    case bool(Bool)
    case null

    /// A finite number, or the error a profile with a non-finite one gets.
    static func finite(_ value: Double) throws(CalibrationJSONError) -> JSONValue {
        guard value.isFinite else { throw CalibrationJSONError("a profile cannot hold the number \(value)") }
        return .number(value == value.rounded() && Swift.abs(value) < 1e15 ? String(Int64(value)) : String(value))
    }

    /// The member `key` of an object.
    func member(_ key: String) throws(CalibrationJSONError) -> JSONValue {
        guard case .object(let members) = self else {
            throw CalibrationJSONError("expected an object holding '\(key)'")
        }
        guard let found = members.first(where: { $0.0 == key }) else {
            throw CalibrationJSONError("missing key '\(key)'")
        }
        return found.1
    }

    /// The member `key` of an object, or nil when the object has none (a key added after the profile was saved).
    func optionalMember(_ key: String) throws(CalibrationJSONError) -> JSONValue? {
        guard case .object(let members) = self else {
            throw CalibrationJSONError("expected an object holding '\(key)'")
        }
        return members.first(where: { $0.0 == key })?.1
    }

    /// A boolean's value.
    func bool() throws(CalibrationJSONError) -> Bool {
        guard case .bool(let value) = self else { throw CalibrationJSONError("expected true or false, found \(kind)") }
        return value
    }

    /// The elements of an array named `name`.
    func array(_ name: String) throws(CalibrationJSONError) -> [JSONValue] {
        guard case .array(let elements) = self else { throw CalibrationJSONError("'\(name)' is not an array") }
        return elements
    }

    /// A string's value.
    func string() throws(CalibrationJSONError) -> String {
        guard case .string(let text) = self else { throw CalibrationJSONError("expected a string, found \(kind)") }
        return text
    }

    /// A number as a Double.
    func double() throws(CalibrationJSONError) -> Double {
        guard case .number(let text) = self, let value = Double(text) else {
            throw CalibrationJSONError("expected a number, found \(kind)")
        }
        return value
    }

    /// A whole number that fits `Integer`.
    func integer<Integer: FixedWidthInteger>() throws(CalibrationJSONError) -> Integer {
        guard case .number(let text) = self else { throw CalibrationJSONError("expected a number, found \(kind)") }
        if let value = Integer(text) { return value }
        if let value = Double(text), value == value.rounded(), let exact = Integer(exactly: value) { return exact }
        throw CalibrationJSONError("\(text) is not a whole number from \(Integer.min) to \(Integer.max)")
    }

    private var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number(let text): "the number \(text)"
        case .bool(let value): "\(value)"
        case .null: "null"
        }
    }

    /// Pretty-printed as `JSONEncoder` does: two spaces per level, `"key" : value`.
    func write(to text: inout String, indent: Int) {
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                text += "{\n\n" + String(repeating: " ", count: indent) + "}"
                return
            }
            text += "{\n"
            for (index, (key, value)) in members.enumerated() {
                text += inner + Self.quoted(key) + " : "
                value.write(to: &text, indent: indent + 2)
                text += index + 1 < members.count ? ",\n" : "\n"
            }
            text += String(repeating: " ", count: indent) + "}"
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "[\n\n" + String(repeating: " ", count: indent) + "]"
                return
            }
            text += "[\n"
            for (index, value) in elements.enumerated() {
                text += inner
                value.write(to: &text, indent: indent + 2)
                text += index + 1 < elements.count ? ",\n" : "\n"
            }
            text += String(repeating: " ", count: indent) + "]"
        case .string(let value): text += Self.quoted(value)
        case .number(let value): text += value
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        }
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped, `/` as `\/` like
    /// `JSONEncoder`.
    static func quoted(_ value: String) -> String { JSONStringLiteral.quoted(value, dialect: .foundation) }
}
