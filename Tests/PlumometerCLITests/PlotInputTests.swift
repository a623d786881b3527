import Foundation
import PlumometerTestSupport
import Testing

/// `plot` reads its recording as it arrives, as `replay` does: `-` is standard input and gives the bytes the file
/// gives (the name in the title aside), a malformed line still plots what came before it, a FIFO that delivers
/// nothing or stops half-way never holds off SIGINT/SIGTERM, and memory does not grow with the recording's length.
@Suite(.serialized)
struct PlotInputTests {
    static let epoch = PlotCommandTests.epoch

    /// Plots `arguments` with the SVG written to a fresh file, `stdin` piped in when given.
    static func plot(_ arguments: [String], stdin: Data? = nil) throws -> (svg: String?, result: ProcessResult) {
        let output = try CLI.temporaryDirectory().appendingPathComponent("plot.svg")
        let result = try CLI.run(["plot"] + arguments + ["-o", output.path], environment: epoch, stdin: stdin)
        let svg = (try? Data(contentsOf: output)).map { String(decoding: $0, as: UTF8.self) }
        return (svg, result)
    }

    /// The N of the note `wrote FILE (N readings)`.
    static func readings(_ result: ProcessResult) -> Int? {
        guard let note = result.stderr.split(separator: "\n").first(where: { $0.contains(" readings)") }) else {
            return nil
        }
        return Int(note.split(separator: "(").last?.split(separator: " ").first ?? "")
    }

    static let cases: [(String, [String])] = [
        (CLI.fixture("magic-trackpad-2.two-plums.evemu"), []),
        (CLI.fixture("grams-pad.calibration.evemu"), []),
        (CLI.fixture("grams-pad.calibration.evemu"), ["--from", "0.5", "--to", "2", "--unit", "oz"]),
        (CLI.fixture("grams-pad.coins.evemu"), ["--tare", "--smooth"]),
        (
            Fixtures.projectFixtures.appendingPathComponent("Recordings/libinput-record-two-devices.yml").path,
            ["-d", "0"]
        ),
    ]

    /// `cat REC | plumometer plot - -o OUT` writes the bytes `plumometer plot REC -o OUT` writes, except that the
    /// title names the file `standard input` (its two mentions, and nothing else, differ).
    @Test(arguments: cases)
    func standardInputPlotsLikeTheFileApartFromItsName(path: String, options: [String]) throws {
        let name = try #require(path.split(separator: "/").last.map(String.init))
        let (fromFile, fileRun) = try Self.plot(options + [path])
        let (fromPipe, pipeRun) = try Self.plot(
            options + ["-"],
            stdin: try Data(contentsOf: URL(fileURLWithPath: path))
        )
        #expect(fileRun.status == 0, "\(fileRun.stderr)")
        #expect(pipeRun.status == 0, "\(pipeRun.stderr)")
        let file = try #require(fromFile)
        let pipe = try #require(fromPipe)
        #expect(file.components(separatedBy: name).count == 3, "the title and the heading name the file")
        #expect(!pipe.contains(name))
        #expect(file.replacingOccurrences(of: name, with: "standard input") == pipe)
        #expect(Self.readings(pipeRun) == Self.readings(fileRun))
        #expect((Self.readings(pipeRun) ?? 0) > 0, "\(pipeRun.stderr)")
    }

    /// A malformed line on standard input ends the plot there: the error names `-` and the line, the status is 1,
    /// and the SVG of everything before it is written, the same as for the same bytes in a file.
    @Test func aMalformedLineOnStandardInputPlotsWhatCameBefore() throws {
        let text = try String(contentsOfFile: CLI.fixture("grams-pad.calibration.evemu"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let firstEvent = try #require(lines.firstIndex { $0.hasPrefix("E:") })
        let broken = firstEvent + 40
        lines.insert("E: 203.000000 0003", at: broken)
        let bytes = Data(lines.joined(separator: "\n").utf8)
        let path = try CLI.temporaryDirectory().appendingPathComponent("broken.evemu")
        try bytes.write(to: path)

        let (fromPipe, pipeRun) = try Self.plot(["-"], stdin: bytes)
        #expect(pipeRun.status == 1)
        #expect(
            pipeRun.stderr.contains("plumometer: -:\(broken + 1): expected 4 fields after 'E:'"),
            "\(pipeRun.stderr)"
        )
        let (fromFile, fileRun) = try Self.plot([path.path])
        #expect(fileRun.status == 1)
        #expect(fileRun.stderr.contains("\(path.path):\(broken + 1): expected 4 fields"), "\(fileRun.stderr)")
        let pipe = try #require(fromPipe, "the SVG of what came before is written")
        let file = try #require(fromFile)
        #expect(file.replacingOccurrences(of: "broken.evemu", with: "standard input") == pipe)
        let count = try #require(Self.readings(pipeRun))
        #expect(count > 0 && count == Self.readings(fileRun))
        // Fewer readings than the whole recording: the rest was not read.
        let (_, whole) = try Self.plot([CLI.fixture("grams-pad.calibration.evemu")])
        #expect(count < (Self.readings(whole) ?? 0))
    }

    /// A FIFO nobody writes to (`empty`), or one that stops half-way and stays open (`head`; `pipe`: the same on
    /// standard input, `plot -`), does not hold the
    /// plot with SIGINT/SIGTERM unheard: it exits at once. With nothing read there is nothing to plot (status 1,
    /// no file); with part of a recording read, that part is plotted (status 0, as a stop by a signal is).
    @Test(arguments: ["empty", "head", "pipe"], ["INT", "TERM"])
    func aStopSignalEndsAPlotWaitingForInput(kind: String, signal: String) throws {
        let script = Fixtures.script("plot_input.py").path
        let output = try CLI.temporaryDirectory().appendingPathComponent("fifo.svg").path
        let recording = CLI.fixture("grams-pad.calibration.evemu")
        let run = try ProcessRunner.run(
            "/usr/bin/python3",
            [script, "stop", try CLI.binary, kind, signal, recording, output],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 60
        )
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let result = try #require(object as? [String: Any], "driver said: \(run.stdout) \(run.stderr)")
        let seconds = try #require(result["seconds"] as? Double, "\(kind) \(signal) hung: \(result)")
        // Milliseconds when the machine is idle; the bound leaves room for a loaded test machine.
        #expect(seconds < 2, "\(kind) \(signal): took \(seconds) s to stop")
        let stderr = result.string("stderr") ?? ""
        if kind == "empty" {
            #expect(result["status"] as? Int == 1, "\(result)")
            #expect(stderr.contains("described a device; nothing was plotted"), "\(stderr)")
            #expect(result["svg_bytes"] is NSNull, "no SVG without a device")
        } else {
            #expect(result["status"] as? Int == 0, "\(result)")
            #expect(stderr.contains("plumometer: stopped"), "\(stderr)")
            #expect((result["svg_bytes"] as? Int ?? 0) > 1000, "\(result)")
            #expect(stderr.contains("wrote \(output) ("), "\(stderr)")
        }
    }

    /// A recording of about 100 MB (240 rounds of a recording a minute apart, padded with comments) is plotted with memory
    /// far below its size: the input is read a chunk at a time, and the plot keeps one bucket per pixel column.
    @Test(.tags(.slow)) func memoryDoesNotGrowWithTheRecording() throws {
        let text = try String(contentsOfFile: CLI.fixture("grams-pad.calibration.evemu"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let description = lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        let events = lines.filter { $0.hasPrefix("E:") }.map { $0.split(separator: " ").map(String.init) }
        let padding = String(repeating: "# " + String(repeating: "x", count: 1021) + "\n", count: 9)
        let path = try CLI.temporaryDirectory().appendingPathComponent("long.evemu")
        #expect(FileManager.default.createFile(atPath: path.path, contents: Data(description.utf8)))
        let handle = try FileHandle(forWritingTo: path)
        try handle.seekToEnd()
        let repeats = 240
        for round in 0..<repeats {
            var chunk = ""
            for event in events {
                let time = (Double(event[1]) ?? 0) + Double(round * 60)
                chunk += "E: " + String(format: "%.6f", time) + " " + event[2...].joined(separator: " ") + "\n"
                if event[2] == "0000" { chunk += padding }
            }
            try handle.write(contentsOf: Data(chunk.utf8))
        }
        try handle.close()
        defer { try? FileManager.default.removeItem(at: path) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int)
        #expect(size > 90_000_000)

        let script = Fixtures.script("replay_input.py").path
        let svg = try CLI.temporaryDirectory().appendingPathComponent("long.svg").path
        let run = try ProcessRunner.run(
            "/usr/bin/python3",
            [script, "peak", try CLI.binary, "plot", path.path, "-o", svg],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 300
        )
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let result = try #require(object as? [String: Any], "driver said: \(run.stdout) \(run.stderr)")
        #expect(result["status"] as? Int == 0, "\(result)")
        let peak = try #require(result["peak_kib"] as? Int)
        #expect(peak < 40 * 1024, "peak RSS \(peak) KiB for a \(size / 1_000_000) MB recording")
        let (_, one) = try Self.plot([CLI.fixture("grams-pad.calibration.evemu")])
        let perRound = try #require(Self.readings(one))
        let stderr = result.string("stderr") ?? ""
        #expect(stderr.contains("(\(perRound * repeats) readings)"), "every round was read: \(stderr)")
        let written = try #require(try FileManager.default.attributesOfItem(atPath: svg)[.size] as? Int)
        #expect(written < 2_000_000)
    }
}
