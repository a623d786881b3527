import Foundation
import PlumometerTestSupport
import Testing

/// Runs the built `plumometer` binary, as a user would.
enum CLI {
    static var binary: String {
        get throws {
            try #require(BuiltProducts.url(named: "plumometer"), "build the package first (swift build)").path
        }
    }

    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        stdin: Data? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        // A fresh, empty configuration directory: no saved profile from the machine leaks into a test.
        var environment = environment
        if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = try temporaryDirectory().path }
        // One wall clock for every run, so two runs' device records (their `wall_time`) compare equal.
        if environment["PLUMOMETER_WALL_CLOCK"] == nil { environment["PLUMOMETER_WALL_CLOCK"] = "1767225600" }
        return try ProcessRunner.run(try binary, arguments, environment: environment, stdin: stdin, timeout: timeout)
    }

    static func fixture(_ name: String) -> String {
        Fixtures.projectFixtures.appendingPathComponent("CLI/" + name).path
    }

    static func temporaryDirectory() throws -> URL {
        try Scratch.directory("cli")
    }

    /// Every stdout line parsed as a JSON object (a test fails on a line that is not one).
    static func jsonObjects(_ result: ProcessResult) throws -> [[String: Any]] {
        try result.stdoutLines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func number(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    func bool(_ key: String) -> Bool? { (self[key] as? NSNumber)?.boolValue }
    func objects(_ key: String) -> [[String: Any]] { (self[key] as? [[String: Any]]) ?? [] }
    func isNull(_ key: String) -> Bool { self[key] is NSNull }
}
