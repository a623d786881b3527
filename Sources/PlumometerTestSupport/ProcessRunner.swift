public import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable, Hashable {
    /// The exit status, or nil when a signal ended the process.
    public var status: Int32?
    /// The signal that ended the process, or nil when it exited.
    public var signal: Int32?
    public var stdout: String
    public var stderr: String
    /// Whether the runner had to kill the process because it ran past its timeout.
    public var timedOut: Bool

    /// `stdout` split into lines, without the empty line after the final newline.
    public var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stdout.hasSuffix("\n") ? 1 : 0)
            .map(String.init)
    }
}

/// Runs a program to completion with a timeout, capturing its output, so that tests never hang.
public enum ProcessRunner {
    /// Unblocks every signal, restores the dispositions Python changes, then becomes the program (looked up in
    /// `PATH` when it has no slash).
    public static let cleanSignals = """
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        for number in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        os.execvp(sys.argv[1], sys.argv[1:])
        """

    /// Runs `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: the program to run (an absolute path, or a name looked up in `PATH`).
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of the current environment.
    ///   - stdin: bytes for its standard input (closed after them).
    ///   - timeout: seconds after which it is sent SIGTERM, then SIGKILL two seconds later.
    ///   - currentDirectory: the working directory, or nil for the current one.
    /// - Returns: the exit status or signal and everything it wrote.
    /// - Throws: when the program cannot be started.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        stdin: Data? = nil,
        timeout: TimeInterval = 30,
        currentDirectory: URL? = nil
    ) throws -> ProcessResult {
        let process = Process()
        // The test runner blocks nearly every signal, and a child inherits that mask, which would hide bugs where a
        // thread of the program under test takes a signal's default action. Children start as from a shell instead:
        // no signal blocked, default dispositions.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.cleanSignals, executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe

        // Read both pipes concurrently so that a chatty child never blocks on a full pipe.
        let collected = CollectedOutput()
        let group = DispatchGroup()
        for (pipe, isError) in [(outPipe, false), (errPipe, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                group.leave()
            }
        }
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()

        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit()
            finished.signal()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGTERM)
            if finished.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
            }
        }
        // A grandchild that kept the pipes open (it outlived its parent) must not hang the test either.
        if group.wait(timeout: .now() + 5) == .timedOut {
            try? outPipe.fileHandleForReading.close()
            try? errPipe.fileHandleForReading.close()
        }
        let (out, err) = collected.values()
        let bySignal = process.terminationReason == .uncaughtSignal
        return ProcessResult(
            status: bySignal ? nil : process.terminationStatus,
            signal: bySignal ? process.terminationStatus : nil,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self),
            timedOut: timedOut
        )
    }
}

/// The two output buffers, filled from two reader threads.
private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func set(_ data: Data, isError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isError { err = data } else { out = data }
    }

    func values() -> (Data, Data) {
        lock.lock()
        defer { lock.unlock() }
        return (out, err)
    }
}
