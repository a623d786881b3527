import Glibc
import PlumometerLinux
import Testing

/// The process edge's one error type: which failure gets which code, and what the user is told (the sentences are
/// the ones the CLI printed before the four output errors became one).
struct OutputErrorTests {
    /// A fresh directory under /tmp for one test.
    static func scratchDirectory() throws -> String {
        var template = Array("/tmp/plumometer-output-XXXXXX".utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            let result: UnsafeMutablePointer<CChar>? = mkdtemp(buffer.baseAddress!)
            return result.map { String(cString: $0) }
        }
        return try #require(made, "mkdtemp")
    }

    @Test func messagesSayWhatFailedAndWhatToDo() {
        #expect(
            OutputError(code: .writeFailed, name: "standard output", function: "write", errno: ENOSPC).description
                == "cannot write to standard output: No space left on device."
        )
        #expect(
            OutputError(code: .createFailed, name: "/root/x.evemu", function: "open", errno: EACCES).description
                == "cannot write /root/x.evemu: Permission denied. Choose another file."
        )
        #expect(
            OutputError(code: .readFailed, name: "x.evemu", function: "open", errno: ENOENT).description
                == "cannot read x.evemu: No such file or directory. Check the file name."
        )
        #expect(OutputError.closed("standard output").description.contains("Broken pipe"))
        #expect(OutputError.closed("standard output").isStop && OutputError.interrupted("standard output").isStop)
        #expect(!OutputError(code: .writeFailed, name: "f", function: "write", errno: EIO).isStop)
    }

    @Test func readingAMissingFileOrADirectory() throws {
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        #expect(throws: OutputError(code: .readFailed, name: directory + "/none", function: "open", errno: ENOENT)) {
            try Files.read(directory + "/none")
        }
        #expect(throws: OutputError(code: .readFailed, name: directory, function: "read", errno: EISDIR)) {
            try Files.read(directory)
        }
    }

    @Test func writingAFileAndReadingItBack() throws {
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        let path = directory + "/out.txt"
        defer { unlink(path) }
        try Files.write("plum\n", to: path)
        #expect(try Files.read(path) == Array("plum\n".utf8))
        #expect(throws: OutputError(code: .createFailed, name: path + "/x", function: "open", errno: ENOTDIR)) {
            try Files.write("", to: path + "/x")
        }
    }

    @Test func aFullDeviceIsAWriteFailure() throws {
        let writer = try FileDescriptorWriter.create("/dev/full")
        #expect(throws: OutputError(code: .writeFailed, name: "/dev/full", function: "write", errno: ENOSPC)) {
            try writer.write("x")
        }
    }

    @Test func aReaderThatWentAwayIsAStop() throws {
        _ = FileDescriptorWriter.standardOutput()  // ignores SIGPIPE, as the CLI does
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        let writer = try FileDescriptorWriter.create(fifo)
        try writer.write("first\n")
        #expect(!writer.readerHasGone)
        close(reader)
        #expect(writer.readerHasGone)
        #expect(throws: OutputError.closed(fifo)) { try writer.write("second\n") }
    }

    @Test func aStopSignalWhileTheReaderStallsInterruptsBeforeTheText() throws {
        let directory = try Self.scratchDirectory()
        defer { rmdir(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let writer = try FileDescriptorWriter.create(fifo)
        // Fill the pipe through a second, non-blocking write end, so the writer's next write would block.
        let filler = open(fifo, O_WRONLY | O_NONBLOCK)
        defer { close(filler) }
        let page = [UInt8](repeating: 0x2e, count: 4096)
        while page.withUnsafeBytes({ Glibc.write(filler, $0.baseAddress, $0.count) }) > 0 {}
        #expect(!writer.canTakeSmallWrite)
        // The stop signal stands for the poll loop's signalfd: a pipe with a byte in it.
        var signal: [Int32] = [0, 0]
        #expect(pipe(&signal) == 0)
        defer {
            close(signal[0])
            close(signal[1])
        }
        #expect(Glibc.write(signal[1], "s", 1) == 1)
        writer.interruptDescriptor = signal[0]
        #expect(throws: OutputError.interrupted(fifo)) { try writer.write("third\n") }
    }
}
