import PlumometerCore
public import PlumometerSeams

extension Runtime {
    /// The real runtime: the poll loop with its signalfd (``Driver``), standard output and standard error, the
    /// system clocks, the file system, evdev devices (``EvdevDevice``, behind ``OpenGuard``) and standard input's
    /// raw mode (``RawKeyboard``).
    public static func system() -> Runtime {
        Runtime(
            console: SystemConsole(),
            clocks: SystemClocks(),
            files: SystemFiles(),
            devices: EvdevDevices(),
            makeKeyboard: { RawKeyboard() },
            makeLoop: { try Driver() }
        )
    }
}

/// Standard output and standard error as whole-line writers.
final class SystemConsole: Console {
    var quiet = false
    var standardOutput: any TextSink { FileDescriptorWriter.standardOutput() }

    func writeError(_ text: String) {
        // A failing stderr has nowhere to be reported.
        try? FileDescriptorWriter.standardError.write(text)
    }

    var errorIsTerminal: Bool { FileDescriptorWriter.standardError.isTerminal }
}

/// `CLOCK_MONOTONIC` and `CLOCK_REALTIME`.
final class SystemClocks: Clocks {
    func monotonic() -> EventTime { EventTime(microseconds: Clock.monotonicMicroseconds()) }
    func realtime() -> EventTime { EventTime(microseconds: Clock.realtimeMicroseconds()) }
}

/// The file system through ``Files``, ``FileSystem`` and ``InputFile``; their errors name the path and the fix.
final class SystemFiles: FileAccess {
    func environment(_ name: String) -> String? { FileSystem.environment(name) }
    var homeDirectory: String { FileSystem.homeDirectory }
    func exists(_ path: String) -> Bool { FileSystem.exists(path) }
    func isReadableFile(_ path: String) -> Bool { FileSystem.isReadableFile(path) }
    func isFIFO(_ path: String) -> Bool { FileSystem.isFIFO(path) }

    func readSmall(_ path: String, limit: Int) throws -> [UInt8] {
        do {
            return try Files.readSmall(path, limit: limit)
        } catch let error as SmallFileError {
            throw FileRefusal(error.description)
        }
    }

    func write(_ text: String, to path: String) throws { try Files.write(text, to: path) }

    func createDirectories(_ path: String) throws {
        do throws(OutputError) {
            try FileSystem.createDirectories(path)
        } catch {
            throw FileRefusal("\(error.function): \(error.errnoText)")
        }
    }

    func replaceAtomically(_ path: String, with text: String) throws {
        do {
            try FileSystem.replaceAtomically(path, with: text)
        } catch let error as OutputError {
            throw FileRefusal("\(error.function): \(error.errnoText)")
        } catch let error as NotAFileError {
            throw FileRefusal("it is \(error.kind), and plumometer replaces only regular files")
        } catch let error as SameFileError {
            throw FileRefusal("\(error.reason); choose another file")
        }
    }

    func appendOutput(_ path: String, rotation: Rotation?) throws -> any TextSink {
        try FileDescriptorWriter.append(path, rotation: rotation)
    }

    func openInput(_ path: String) throws -> any ByteInput { ArrivingBytes(try InputFile(path: path)) }
    func createOutput(_ path: String, whole: Bool) throws -> any FileOutput { OutputFile(path, whole: whole) }
    func createSpool(beside path: String) throws -> any Spool { try SpoolFile(beside: path) }
}

/// evdev nodes: ``OpenGuard`` refuses a keyboard before anything is opened, then ``EvdevDevice`` opens it read-only.
final class EvdevDevices: DeviceAccess {
    func open(_ path: String, grab: Bool) throws -> any InputDevice {
        if let refusal = OpenGuard.check(path: path) { throw refusal }
        return try EvdevDevice(path: path, grab: grab)
    }
}

/// ``EvdevDevice`` is the sessions' ``InputDevice``.
extension EvdevDevice: InputDevice {}

/// ``DeviceError`` says when the device has gone (``DeviceError/Code/gone``).
extension DeviceError: DeviceFailure {
    public var deviceHasGone: Bool { code == .gone }
}

/// ``RawKeyboard`` is the sessions' ``Keyboard``.
extension RawKeyboard: Keyboard {}

/// An ``InputFile`` as the session's ``ByteInput``.
final class ArrivingBytes: ByteInput {
    private let file: InputFile

    init(_ file: InputFile) { self.file = file }

    var name: String { file.name }
    var fileDescriptor: Int32 { file.fileDescriptor }
    var isTerminal: Bool { file.isTerminal }
    func peek(_ count: Int) -> [UInt8]? { file.peek(count) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead {
        switch try file.read(into: buffer) {
        case .bytes(let count): .bytes(count)
        case .wouldBlock: .wouldBlock
        case .end: .end
        }
    }
}

/// ``OutputFile`` is the sessions' ``FileOutput``.
extension OutputFile: FileOutput {}

/// ``SpoolFile`` is the sessions' ``Spool``.
extension SpoolFile: Spool {}

/// The bridge's notes (a stalled stdout's skipped lines, the web server's messages) on the runtime console's stderr
/// unless `--quiet`, as the session's `Diagnostics.note` writes its own; a message may quote what a client sent, so
/// no control character reaches the terminal.
func note(_ message: String) {
    let console = Runtime.current.console
    guard !console.quiet else { return }
    let visible = message.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) }
    console.writeError("plumometer: " + String(visible) + "\n")
}
