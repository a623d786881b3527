import Glibc
import PlumometerLinux
import PlumometerTestKit
import Testing

/// ``FileSystem/replaceAtomically(_:with:)`` never writes through what is planted at its temporary name and never
/// replaces what is not a regular file.
@Suite struct FileReplacementTests {
    static func scratch() throws -> String {
        try OutputErrorTests.scratchDirectory()
    }

    @Test(.tags(.foundInReview))
    func aHardLinkPlantedAtTheTemporaryNameIsNotWrittenThrough() throws {
        let directory = try Self.scratch()
        let victim = directory + "/victim"
        try Files.write("precious\n", to: victim)
        let target = directory + "/profile.json"
        #expect(link(victim, target + ".tmp-\(getpid())") == 0)
        try FileSystem.replaceAtomically(target, with: "new\n")
        #expect(try Files.read(victim) == Array("precious\n".utf8))
        #expect(try Files.read(target) == Array("new\n".utf8))
    }

    @Test(.tags(.foundByFaultInjection))
    func aFIFOOrADirectoryAtTheTargetIsRefusedAndLeft() throws {
        let directory = try Self.scratch()
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let inner = directory + "/inner"
        #expect(mkdir(inner, 0o700) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (inner, "a directory")] {
            do {
                try FileSystem.replaceAtomically(path, with: "x")
                Issue.record("\(path) was replaced")
            } catch let error as NotAFileError {
                #expect(error.kind == kind)
            }
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(inner, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
    }

    @Test func anOldFileIsReplacedWhole() throws {
        let directory = try Self.scratch()
        let target = directory + "/out.txt"
        try Files.write("old old old\n", to: target)
        try FileSystem.replaceAtomically(target, with: "new\n")
        #expect(try Files.read(target) == Array("new\n".utf8))
    }
}
