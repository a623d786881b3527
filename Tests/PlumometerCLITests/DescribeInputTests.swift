import Foundation
import PlumometerTestSupport
import Testing

/// `describe FILE` reads its recording as every other reader does (in the poll loop, a chunk at a time, within the
/// recording limits): it read the whole input before, so `/dev/zero` grew its memory by about 1.3 GB/s, deaf to
/// SIGINT and SIGTERM. Its FIFO and signal cases are in `SignalOnEveryWaitTests`, its memory in `ReplayMemoryTests`.
struct DescribeInputTests {
    @Test(.tags(.foundByFaultInjection), arguments: ["/dev/zero", "/dev/urandom"])
    func anEndlessDeviceIsRefusedFromItsFirstBytes(path: String) throws {
        let result = try CLI.run(["describe", path], timeout: 20)
        #expect(!result.timedOut, "describe \(path) read on")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(path):1: "), "\(result.stderr)")
        // Random bytes may begin with what looks like a line of text: then it is plain text, not a recording.
        let refused = result.stderr.contains("this is not a text file") || result.stderr.contains("not a recording")
        #expect(refused, "\(result.stderr)")
    }

    /// `-` is standard input, as for `replay` and `plot` (and evemu's and libinput's tools).
    @Test func dashReadsStandardInput() throws {
        let recording = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("grams-pad.one-object.evemu")))
        let fromStdin = try CLI.run(["describe", "-"], stdin: recording)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        let fromFile = try CLI.run(["describe", CLI.fixture("grams-pad.one-object.evemu")])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        // The same description; only the path line differs.
        func withoutPath(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.hasPrefix("path:") }
        }
        #expect(withoutPath(fromStdin.stdout) == withoutPath(fromFile.stdout))
        #expect(fromStdin.stdout.contains("path:        -\n"), "\(fromStdin.stdout)")
    }

    /// A file of carriage returns is no empty file: it is refused at its first line, as `replay` refuses it.
    @Test func aFileOfCarriageReturnsIsRefusedAtItsLine() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("cr-only.evemu")
        try Data("\r\r\r\r".utf8).write(to: file)
        for command in [["describe"], ["replay", "--fast"]] {
            let result = try CLI.run(command + [file.path])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("cr-only.evemu:1: unexpected line"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("empty"), "\(command): \(result.stderr)")
        }
    }

    /// A line past the recording limit (1 MiB) is refused at it, as by `replay`, with no more than that read.
    @Test func aLineLongerThanTheLimitIsRefused() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("one-line.evemu")
        try Data(("N: " + String(repeating: "x", count: 3 << 20) + "\n").utf8).write(to: file)
        let result = try CLI.run(["describe", file.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("one-line.evemu:1: a line longer than 1 MiB"), "\(result.stderr)")
    }
}
