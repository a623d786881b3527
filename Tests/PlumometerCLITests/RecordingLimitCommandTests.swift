import Foundation
import PlumometerTestSupport
import Testing

/// A recording past one of the readers' limits (here 80 KB of `[[[…]]]`, 40,000 levels deep, which overflowed the
/// parser's stack) ends every command that reads recordings with status 1 and the error at its file and line,
/// naming the limit: no crash.
@Suite struct RecordingLimitCommandTests {
    static func deepFile() throws -> URL {
        let deep = String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
        let text = """
            # libinput record
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Pad"
                id: [3, 1, 2, 1]
                codes:
                  0: [0]
                  3: [0, 24]
                absinfo:
                  0: [0, 100, 0, 0, 0]
                  24: [0, 255, 0, 0, 0]
              events:
              - evdev:
                - \(deep)

            """
        let url = try CLI.temporaryDirectory().appendingPathComponent("deep.yml")
        try Data(text.utf8).write(to: url)
        return url
    }

    static let commands: [[String]] = [
        ["replay", "--fast", "{file}"],
        ["replay", "--fast", "-"],
        ["plot", "{file}", "-o", "{dir}/deep.svg"],
        ["probe", "--replay", "{file}"],
        ["weigh", "--replay", "{file}"],
        ["calibrate", "--replay", "{file}", "--point", "0:0", "--point", "100:100", "-o", "{dir}/p.json"],
    ]

    @Test(.tags(.foundByFuzzing), arguments: commands)
    func aRecordingNestedTooDeeplyIsAnErrorAtItsLine(arguments: [String]) throws {
        let file = try Self.deepFile()
        let directory = try CLI.temporaryDirectory().path
        let filled = arguments.map {
            $0.replacingOccurrences(of: "{file}", with: file.path).replacingOccurrences(of: "{dir}", with: directory)
        }
        let stdin = arguments.contains("-") ? try Data(contentsOf: file) : nil
        let result = try CLI.run(filled, stdin: stdin, timeout: 30)
        let name = arguments.contains("-") ? "-" : file.path
        #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
        #expect(
            result.stderr.contains("\(name):17: lists and mappings nested more than 32 levels deep (the limit)"),
            "\(arguments): \(result.stderr)"
        )
    }
}
