public import PlumometerSeams

/// A console that keeps what is written: standard output and standard error as text, for assertions (as swiftly's
/// tests swap in an output handler).
///
/// Its standard output is a terminal of the test's size when made with one (the live view is then drawn there),
/// and takes lines in latest-state mode as the real one does: from a writer of its own (``latestStateWriters``
/// counts them) that here writes at once, as for a reader that keeps up.
public final class CapturingConsole: Console {
    private final class Capture: TextSink {
        var text = ""
        var size: (columns: Int, rows: Int)?
        var colour = false
        var writers = 0
        func write(_ text: String) throws { self.text += text }
        var isTerminal: Bool { size != nil }
        var colourAllowed: Bool { size != nil && colour }
        var terminalSize: (columns: Int, rows: Int) { size ?? (80, 24) }
        func makeLatestStateWriter() -> (any LatestStateSink)? {
            writers += 1
            return LatestState(self)
        }
    }

    /// Lines written at once, none skipped: a reader that keeps up.
    private final class LatestState: LatestStateSink {
        let capture: Capture
        init(_ capture: Capture) { self.capture = capture }
        var skipped: Int { 0 }
        func write(_ text: String, droppable: Bool) throws { try capture.write(text) }
        func finish(timeout: Double) throws {}
    }

    private let output = Capture()
    /// Standard error, as written.
    public private(set) var errors = ""
    public var errorIsTerminal = false
    public var quiet = false

    /// A console whose standard output is a terminal of `terminal`'s size (nil: no terminal, a pipe), with colour
    /// allowed or not.
    public init(terminal: (columns: Int, rows: Int)? = nil, colour: Bool = false) {
        output.size = terminal
        output.colour = colour
    }

    /// Resizes standard output's terminal (send the loop's SIGWINCH with it: `signalResize()`).
    public func resizeTerminal(columns: Int, rows: Int) { output.size = (columns, rows) }

    /// The latest-state writers made for standard output (a live device's lines).
    public var latestStateWriters: Int { output.writers }

    public var standardOutput: any TextSink { output }
    public func writeError(_ text: String) { errors += text }

    /// Standard output, as written.
    public var written: String { output.text }

    /// Standard output's lines.
    public var lines: [Substring] { written.split(separator: "\n") }
}

/// Files in memory: a path's bytes, the environment and the home directory are the test's; outputs made here are
/// files too. Inputs are ``MemoryInput``s, read in chunks like a file.
public final class MemoryFiles: FileAccess {
    /// Every file, by path.
    public var files: [String: [UInt8]]
    /// The environment.
    public var variables: [String: String]
    public var homeDirectory: String

    public init(
        _ files: [String: [UInt8]] = [:],
        environment: [String: String] = [:],
        homeDirectory: String = "/home/plum"
    ) {
        self.files = files
        self.variables = environment
        self.homeDirectory = homeDirectory
    }

    private struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read \(path): No such file or directory. Check the file name." }
    }

    /// A file appended to, rotated at its limit, as the bridge's `FileDescriptorWriter.append`.
    private final class Appended: TextSink {
        let path: String
        let files: MemoryFiles
        let rotation: Rotation?
        init(path: String, files: MemoryFiles, rotation: Rotation?) {
            self.path = path
            self.files = files
            self.rotation = rotation
        }
        func write(_ text: String) throws {
            files.files[path, default: []] += Array(text.utf8)
            guard let rotation, Int64(files.files[path, default: []].count) >= rotation.maximumSize else { return }
            if rotation.keep > 0 {
                for index in stride(from: rotation.keep - 1, through: 1, by: -1) {
                    files.files["\(path).\(index + 1)"] = files.files["\(path).\(index)"]
                }
                files.files["\(path).1"] = files.files[path]
            }
            files.files[path] = []
        }
        func startOnNewLineIfAppending() throws {
            if let last = files.files[path]?.last, last != UInt8(ascii: "\n") { try write("\n") }
        }
    }

    /// A file made by its first write, replacing what was there, as the bridge's `OutputFile`.
    private final class Output: FileOutput {
        let path: String
        let files: MemoryFiles
        private(set) var isOpen = false
        init(path: String, files: MemoryFiles) {
            self.path = path
            self.files = files
        }
        func write(_ text: String) throws {
            if !isOpen { files.files[path] = [] }
            isOpen = true
            files.files[path, default: []] += Array(text.utf8)
        }
        func finish() throws {}
    }

    public func environment(_ name: String) -> String? { variables[name] }
    public func exists(_ path: String) -> Bool { files[path] != nil }
    public func isReadableFile(_ path: String) -> Bool { files[path] != nil }
    public func isFIFO(_ path: String) -> Bool { false }

    public func read(_ path: String) throws -> [UInt8] {
        guard let bytes = files[path] else { throw Missing(path: path) }
        return bytes
    }

    public func readSmall(_ path: String, limit: Int) throws -> [UInt8] {
        let bytes = try read(path)
        guard bytes.count <= limit else { throw FileRefusal("\(path) is larger than \(limit) bytes") }
        return bytes
    }

    public func write(_ text: String, to path: String) throws { files[path] = Array(text.utf8) }
    public func createDirectories(_ path: String) throws {}
    public func replaceAtomically(_ path: String, with text: String) throws { files[path] = Array(text.utf8) }

    public func appendOutput(_ path: String, rotation: Rotation?) throws -> any TextSink {
        if files[path] == nil { files[path] = [] }
        return Appended(path: path, files: self, rotation: rotation)
    }

    public func openInput(_ path: String) throws -> any ByteInput { MemoryInput(try read(path), name: path) }

    public func createOutput(_ path: String, whole: Bool) throws -> any FileOutput { Output(path: path, files: self) }

    /// Spools made so far (a test checks that several devices are not kept in memory by the recorder).
    public private(set) var spoolCount = 0

    private final class MemorySpool: Spool {
        var text = ""
        func write(_ text: String) throws { self.text += text }
        func readBack(_ body: (String) throws -> Void) throws { try body(text) }
    }

    public func createSpool(beside path: String) throws -> any Spool {
        spoolCount += 1
        return MemorySpool()
    }
}

extension Runtime {
    /// The runtime bound to the current task by ``with(_:_:)``.
    @TaskLocal private static var bound: Runtime?

    /// Makes ``Runtime/current`` read ``bound`` first (once, whoever asks first).
    private static let scoped: Void = { Runtime.scope = { Runtime.bound } }()

    /// Runs `body` with `runtime` as ``Runtime/current`` for this task only: tests running side by side each see
    /// their own console, clocks, files and loop.
    public static func with<Result>(_ runtime: Runtime, _ body: () throws -> Result) rethrows -> Result {
        _ = scoped
        return try $bound.withValue(runtime) { try body() }
    }

    /// A runtime for tests, to bind with ``with(_:_:)``: an ``EmbeddedEventLoop`` on ``ManualClocks`` (every
    /// session gets `loop`), a ``CapturingConsole``, ``MemoryFiles``, ``ScriptedDevices`` and, when given, a
    /// ``TypedKeyboard`` as standard input's terminal (without one, standard input is no terminal).
    public static func embedded(
        console: CapturingConsole = CapturingConsole(),
        files: MemoryFiles = MemoryFiles(),
        loop: EmbeddedEventLoop = EmbeddedEventLoop(clocks: ManualClocks()),
        devices: ScriptedDevices = ScriptedDevices(),
        keyboard: TypedKeyboard? = nil
    ) -> Runtime {
        Runtime(
            console: console,
            clocks: loop.clocks ?? ManualClocks(),
            files: files,
            devices: devices,
            makeKeyboard: { keyboard?.enter() == true ? keyboard : nil },
            makeLoop: { loop }
        )
    }
}
