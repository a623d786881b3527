import Glibc
import PlumometerLinux
import PlumometerSeams
import PlumometerTestKit
import Testing

/// ``OutputFile``, the one rule of every writer: nothing is created or replaced before the first record, then
/// atomically; never over a recording being read or another output; a whole output only at its end. ``SpoolFile``
/// keeps text on the disk, and ``FileDescriptorWriter/append(_:rotation:)`` rotates a log at its size limit.
@Suite struct OutputFileTests {
    static func scratch() throws -> String {
        try OutputErrorTests.scratchDirectory()
    }

    static func contents(_ path: String) throws -> String {
        String(decoding: try Files.read(path), as: UTF8.self)
    }

    @Test(.tags(.foundByFaultInjection))
    func aFileIsLeftAsItWasUntilTheFirstRecord() throws {
        let directory = try Self.scratch()
        let path = directory + "/keep.evemu"
        try Files.write("kept\n", to: path)
        let output = OutputFile(path)
        #expect(try Self.contents(path) == "kept\n", "made before its first record")
        try output.write("first\n")
        try output.write("second\n")
        try output.finish()
        #expect(try Self.contents(path) == "first\nsecond\n")
        #expect(try Files.read(directory + "/keep.evemu").count == 13)
        #expect(Self.names(in: directory) == ["keep.evemu"], "a temporary file was left")
    }

    @Test(.tags(.foundByFaultInjection))
    func aRecordingBeingReadIsNeverTheOutputWhateverItsPath() throws {
        let directory = try Self.scratch()
        let path = directory + "/d.evemu"
        try Files.write("recording\n", to: path)
        #expect(link(path, directory + "/alias.evemu") == 0)
        do {
            let input = try InputFile(path: path)
            for name in [path, directory + "/./d.evemu", directory + "/alias.evemu"] {
                #expect(throws: SameFileError.self, "\(name)") { try OutputFile(name).write("profile\n") }
            }
            #expect(try Self.contents(path) == "recording\n")
            withExtendedLifetime(input) {}
        }
        // Once it is closed, it may be replaced.
        try OutputFile.write("new\n", to: path)
        #expect(try Self.contents(path) == "new\n")
    }

    @Test(.tags(.foundByFaultInjection))
    func twoOutputsOfOneFileAreRefused() throws {
        let directory = try Self.scratch()
        let path = directory + "/F"
        let log = try FileDescriptorWriter.append(path)
        try log.write("{\"type\":\"frame\"}\n")
        #expect(throws: SameFileError.self) { try OutputFile(directory + "/./F").write("# EVEMU 1.3\n") }
        withExtendedLifetime(log) {}
        #expect(try Self.contents(path) == "{\"type\":\"frame\"}\n")
    }

    @Test(.tags(.foundByFaultInjection))
    func aWholeOutputReplacesTheOldFileOnlyAtItsEnd() throws {
        let directory = try Self.scratch()
        let path = directory + "/both.yml"
        try Files.write("old\n", to: path)
        do {
            let output = OutputFile(path, whole: true)
            try output.write("version: 1\n")
            #expect(try Self.contents(path) == "old\n")
            // Dropped unfinished (a failure on the way): the old file stays, and no temporary file.
        }
        #expect(try Self.contents(path) == "old\n")
        #expect(Self.names(in: directory) == ["both.yml"])
        let output = OutputFile(path, whole: true)
        try output.write("version: 1\n")
        try output.write("ndevices: 2\n")
        try output.finish()
        #expect(try Self.contents(path) == "version: 1\nndevices: 2\n")
        #expect(Self.names(in: directory) == ["both.yml"])
    }

    @Test func aSpoolIsInvisibleAndGivesItsTextBackInWholeLines() throws {
        let directory = try Self.scratch()
        let spool = try SpoolFile(beside: directory + "/x.yml")
        #expect(Self.names(in: directory).isEmpty, "the spool has a name in the directory")
        let line = String(repeating: "é", count: 700) + "\n"
        for _ in 0..<300 { try spool.write(line) }
        var pieces: [String] = []
        try spool.readBack { pieces.append($0) }
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") })
        #expect(pieces.joined() == String(repeating: line, count: 300))
    }

    @Test(.tags(.foundByFaultInjection))
    func aLogIsRotatedAtItsLimitBetweenLinesAndKeepsNoMoreThanAsked() throws {
        let directory = try Self.scratch()
        let path = directory + "/readings.jsonl"
        let writer = try FileDescriptorWriter.append(path, rotation: Rotation(maximumSize: 4096, keep: 2))
        let lines = (0..<1000).map { "{\"seq\":\($0),\"pad\":\"\(String(repeating: "x", count: 40))\"}\n" }
        for line in lines { try writer.write(line) }
        #expect(Self.names(in: directory) == ["readings.jsonl", "readings.jsonl.1", "readings.jsonl.2"])
        var kept = ""
        for name in ["readings.jsonl.2", "readings.jsonl.1", "readings.jsonl"] {
            let text = try Self.contents(directory + "/" + name)
            #expect(text.utf8.count < 4096 + 64, "\(name) is \(text.utf8.count) bytes")
            #expect(text.isEmpty || text.hasSuffix("\n"))
            kept += text
        }
        // The newest lines, whole and in order, up to the last one written.
        #expect(kept.hasSuffix(lines.last!))
        #expect(lines.joined().hasSuffix(kept))
        #expect(kept.utf8.count > 2 * 4096)
    }

    @Test func aLogAlreadyAtItsLimitIsRotatedBeforeTheFirstLine() throws {
        let directory = try Self.scratch()
        let path = directory + "/readings.jsonl"
        try Files.write(String(repeating: "{}\n", count: 2000), to: path)
        let writer = try FileDescriptorWriter.append(path, rotation: Rotation(maximumSize: 4096, keep: 0))
        try writer.write("{\"new\":1}\n")
        #expect(try Self.contents(path) == "{\"new\":1}\n")
        #expect(Self.names(in: directory) == ["readings.jsonl"])
    }

    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
