public import PlumometerCore

/// What a session needs from the process, behind seams so that everything above them is pure: the event loop it
/// runs in, the console it writes to, the clocks it reads, the files it opens, the input devices it reads and the
/// keyboard of the live view.
///
/// The tool's entry installs the real ones (the bridge's `Runtime.system()`: poll with a signalfd, stdout and stderr,
/// `CLOCK_MONOTONIC`, the file system, evdev, the terminal) before any command runs; a test binds the test kit's (an
/// embedded loop, a capturing console, set clocks, emulated devices, keys typed by the test) to its own task with the test kit's `Runtime.with(_:_:)` (through ``scope``), so
/// tests running side by side each see their own. Until then, ``current`` is ``detached``: it writes nothing and
/// opens nothing.
///
/// `@unchecked Sendable`: a runtime is bound to a task only to be used by that task's synchronous work; the real
/// one's parts are safe from any thread (the stdout writer's thread reads its clock).
public struct Runtime: @unchecked Sendable {
    /// Standard output and standard error.
    public var console: any Console
    /// Now, on the clocks sessions read.
    public var clocks: any Clocks
    /// The files commands read and write (profiles, recordings, outputs) and the environment.
    public var files: any FileAccess
    /// The live input devices (evdev nodes) commands read.
    public var devices: any DeviceAccess
    /// Standard input's keys in raw mode for the live view, or nil when standard input is no terminal.
    public var makeKeyboard: () -> (any Keyboard)?
    /// Makes the loop of one run.
    public var makeLoop: () throws -> any EventLoop

    public init(
        console: any Console,
        clocks: any Clocks,
        files: any FileAccess,
        devices: any DeviceAccess = NoDevices(),
        makeKeyboard: @escaping () -> (any Keyboard)? = { nil },
        makeLoop: @escaping () throws -> any EventLoop
    ) {
        self.console = console
        self.clocks = clocks
        self.files = files
        self.devices = devices
        self.makeKeyboard = makeKeyboard
        self.makeLoop = makeLoop
    }

    /// The runtime in force: a test's (``scope``), else the process's. Setting it installs the process's: once, by
    /// the entry point, on the main thread before any session.
    public static var current: Runtime {
        get { scope?() ?? installed }
        set { installed = newValue }
    }

    nonisolated(unsafe) private static var installed = Runtime.detached

    /// Where the runtime of the code running now comes from when it is not the process's: the test kit's
    /// `Runtime.with(_:_:)` binds one to a test's task, so tests running side by side each see their own. nil in
    /// the tool (kept out of this target so that the tool does not link Swift's concurrency runtime: 1 MB of RSS).
    public nonisolated(unsafe) static var scope: (() -> Runtime?)?

    /// A runtime with nothing behind it: no console output, clocks at zero, no files, no devices, no keyboard, no
    /// loop.
    public static var detached: Runtime {
        Runtime(console: DetachedConsole(), clocks: FixedClocks(), files: NoFiles()) {
            throw NotInstalled("no event loop is installed (Runtime.current is detached)")
        }
    }
}

/// Standard output and standard error, as sessions use them.
public protocol Console: AnyObject {
    /// Standard output: the readings, the answers, the documents asked for.
    var standardOutput: any TextSink { get }
    /// Writes `text` on standard error; a failing stderr has nowhere to be reported, so nothing is thrown.
    func writeError(_ text: String)
    /// Whether standard error is a terminal (a progress line is redrawn in place there).
    var errorIsTerminal: Bool { get }
    /// `--quiet`: notes are left out; errors, prompts and answers are not.
    var quiet: Bool { get set }
}

/// Standard output, the runtime console's: the readings, the answers, the documents asked for.
public enum StandardOutput {
    /// Writes whole lines on standard output.
    public static func write(_ text: String) throws {
        try Runtime.current.console.standardOutput.write(text)
    }
}

/// Somewhere whole lines of text go: standard output, a file, a FIFO.
///
/// Standard output and `stream -o FILE` also say whether a person watches them (a terminal: the live view is drawn
/// there, with its size and whether colour is allowed) and can be written in latest-state mode (a live device's
/// lines from a thread of their own); the others keep the defaults: no terminal, lines as they come.
public protocol TextSink: AnyObject {
    /// Writes `text` (whole lines) completely, or throws naming the sink.
    func write(_ text: String) throws
    /// Whether it is a terminal.
    var isTerminal: Bool { get }
    /// Whether colour may be written: a terminal, without `NO_COLOR` and not `TERM=dumb`.
    var colourAllowed: Bool { get }
    /// The terminal's columns and rows (80 x 24 when unknown or no terminal).
    var terminalSize: (columns: Int, rows: Int) { get }
    /// A new writer of its lines from a thread of its own, so a stalled reader never stalls a live device's reading:
    /// frames a stalled reader did not take give way to newer ones. nil where lines are only taken as they come.
    func makeLatestStateWriter() -> (any LatestStateSink)?
    /// Starts on a new line when appending to a regular file whose last byte is not a newline (`>> log`), so a line
    /// an earlier run left cut stays on its own.
    func startOnNewLineIfAppending() throws
}

extension TextSink {
    public var isTerminal: Bool { false }
    public var colourAllowed: Bool { false }
    public var terminalSize: (columns: Int, rows: Int) { (80, 24) }
    public func makeLatestStateWriter() -> (any LatestStateSink)? { nil }
    public func startOnNewLineIfAppending() throws {}
}

/// The clocks a session reads. Event times (``EventTime``) are microseconds.
public protocol Clocks: AnyObject {
    /// `CLOCK_MONOTONIC`: the clock evdev devices stamp events with once asked to, and every timeout's.
    func monotonic() -> EventTime
    /// `CLOCK_REALTIME`: the clock evdev stamps events with by default, and the calendar's.
    func realtime() -> EventTime
}

/// The files commands read and write, and the environment they look at.
public protocol FileAccess: AnyObject {
    /// The value of an environment variable, or nil.
    func environment(_ name: String) -> String?
    /// The user's home directory.
    var homeDirectory: String { get }
    /// Whether anything exists at `path`.
    func exists(_ path: String) -> Bool
    /// Whether `path` is a regular file this process may read.
    func isReadableFile(_ path: String) -> Bool
    /// Whether `path` is a FIFO.
    func isFIFO(_ path: String) -> Bool
    /// A regular file of at most `limit` bytes, read whole.
    /// - Throws: ``FileRefusal`` for what is not such a file (too large, a FIFO, a device), another error naming the
    ///   path when it cannot be opened at all.
    func readSmall(_ path: String, limit: Int) throws -> [UInt8]
    /// Writes `text` to a new file at `path` (never over a device, a FIFO's reader excepted).
    func write(_ text: String, to path: String) throws
    /// Makes `path` and its parents as directories.
    /// - Throws: ``FileRefusal`` saying which call failed and why.
    func createDirectories(_ path: String) throws
    /// Replaces the regular file at `path` with `text` at once (written beside it, then renamed).
    /// - Throws: ``FileRefusal`` saying which call failed and why, or that `path` is no regular file.
    func replaceAtomically(_ path: String, with text: String) throws
    /// Opens `path` for appending whole lines (`stream -o FILE`; created when missing), never through a symbolic
    /// link, starting on a new line, and rotated by `rotation` once it has grown to its limit.
    /// - Throws: an error naming the path: it cannot be made, or it is an input of this command.
    func appendOutput(_ path: String, rotation: Rotation?) throws -> any TextSink
    /// Opens `path` (`-`: standard input) to be read as it arrives, without blocking.
    func openInput(_ path: String) throws -> any ByteInput
    /// The file at `path` as an output, created or replaced only by its first write: once the input has opened and
    /// the first record is ready (the bridge's `OutputFile`: atomically, never over an input of the command). With
    /// `whole`, nothing replaces the old file before ``FileOutput/finish()``: every write goes to a temporary file
    /// renamed over it there.
    func createOutput(_ path: String, whole: Bool) throws -> any FileOutput
    /// A scratch file beside `path` that no one else sees (removed from the directory at once, gone with the
    /// process), for text written now and read back once at the end.
    func createSpool(beside path: String) throws -> any Spool
}

extension FileAccess {
    /// The file at `path` as an output written record by record (``createOutput(_:whole:)``, not whole).
    public func createOutput(_ path: String) throws -> any FileOutput { try createOutput(path, whole: false) }
}

/// Text kept on the disk, not in memory, until it is read back in order.
public protocol Spool: AnyObject {
    /// Appends `text`.
    func write(_ text: String) throws
    /// Hands what was written back, in pieces of whole lines, in order.
    func readBack(_ body: (String) throws -> Void) throws
}

/// A file written record by record (`record -o`, `stream --record`): nothing is there until the first write.
public protocol FileOutput: TextSink {
    /// The path it is written to.
    var path: String { get }
    /// Whether the first write has made the file.
    var isOpen: Bool { get }
    /// Flushes it to the disk once every record is written.
    func finish() throws
}

/// Why a small file was not read: it is too large, or no regular file; ``description`` says which and what to do.
public struct FileRefusal: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// Bytes that arrive: a file, standard input, a FIFO, a pipe, or bytes in memory.
public protocol ByteInput: AnyObject {
    /// The name messages use (the path, or `-`).
    var name: String { get }
    /// The descriptor to wait on while ``read(into:)`` says ``ByteRead/wouldBlock`` (-1 when it never does).
    var fileDescriptor: Int32 { get }
    /// Whether it is a terminal (a recording typed at the prompt).
    var isTerminal: Bool { get }
    /// Reads what is there into `buffer`, never blocking.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead
    /// Up to `count` bytes of the head of a regular file, without consuming them; nil for anything else.
    func peek(_ count: Int) -> [UInt8]?
}

/// What one read of a ``ByteInput`` gave.
public enum ByteRead: Equatable, Sendable {
    /// So many bytes (more than zero).
    case bytes(Int)
    /// Nothing yet: wait for the descriptor.
    case wouldBlock
    /// The end.
    case end
}

/// Bytes in memory as a ``ByteInput`` (the bundled demo, tests): read in chunks like a file, never waiting.
public final class MemoryInput: ByteInput {
    public let name: String
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    public var fileDescriptor: Int32 { -1 }
    public var isTerminal: Bool { false }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead {
        guard offset < bytes.count else { return .end }
        let count = Swift.min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }

    public func peek(_ count: Int) -> [UInt8]? { Array(bytes.prefix(count)) }
}

private final class DetachedConsole: Console, TextSink {
    var quiet = false
    var standardOutput: any TextSink { self }
    func write(_ text: String) throws {}
    func writeError(_ text: String) {}
    var errorIsTerminal: Bool { false }
}

private final class FixedClocks: Clocks {
    func monotonic() -> EventTime { .zero }
    func realtime() -> EventTime { .zero }
}

/// What a detached runtime throws: nothing is installed to do it.
struct NotInstalled: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

private final class NoFiles: FileAccess {
    private func refuse(_ path: String) -> NotInstalled { NotInstalled("\(path): no file system is installed") }
    func environment(_ name: String) -> String? { nil }
    var homeDirectory: String { "/" }
    func exists(_ path: String) -> Bool { false }
    func isReadableFile(_ path: String) -> Bool { false }
    func isFIFO(_ path: String) -> Bool { false }
    func read(_ path: String) throws -> [UInt8] { throw refuse(path) }
    func readSmall(_ path: String, limit: Int) throws -> [UInt8] { throw refuse(path) }
    func write(_ text: String, to path: String) throws { throw refuse(path) }
    func createDirectories(_ path: String) throws { throw refuse(path) }
    func replaceAtomically(_ path: String, with text: String) throws { throw refuse(path) }
    func appendOutput(_ path: String, rotation: Rotation?) throws -> any TextSink { throw refuse(path) }
    func openInput(_ path: String) throws -> any ByteInput { throw refuse(path) }
    func createOutput(_ path: String, whole: Bool) throws -> any FileOutput { throw refuse(path) }
    func createSpool(beside path: String) throws -> any Spool { throw refuse(path) }
}
