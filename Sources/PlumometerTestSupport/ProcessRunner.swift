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
    /// Unblocks every signal, restores the dispositions Python changes, makes a process group of its own (so that
    /// ``run(_:_:environment:stdin:timeout:currentDirectory:)`` can end everything it starts), then becomes the
    /// program (looked up in `PATH` when it has no slash).
    public static let cleanSignals = """
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        for number in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        os.setpgid(0, 0)
        os.execvp(sys.argv[1], sys.argv[1:])
        """

    /// The arguments of `timeout` (before the program and its own) that send the program `signal` after `seconds`
    /// and pass on its exit status (128 + N when signal N ended it): a user's `kill` at a set time.
    ///
    /// `--foreground`: without it GNU timeout follows the signal with a SIGCONT to the program and its process
    /// group. An AddressSanitizer build that has just stopped may then be in LeakSanitizer's exit check, which
    /// stops every thread with `ptrace` first; a SIGCONT arriving there discards the SIGSTOP of the attach, and the
    /// check waits for that thread for ever. The run hung until the runner's timeout, which returned it without the
    /// output it had read: the "JSON line unfinished" of `RecordFormatTests` and `StreamTests` under ASan.
    public static func timeoutArguments(_ seconds: Double, signal: String = "TERM") -> [String] {
        ["--foreground", "--preserve-status", "-s", signal, String(seconds)]
    }

    /// Runs `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: the program to run (an absolute path, or a name looked up in `PATH`).
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of the current environment.
    ///   - stdin: bytes for its standard input (closed after them).
    ///   - timeout: seconds after which its process group is sent SIGTERM, then SIGKILL two seconds later.
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

        // Read both pipes concurrently so that a chatty child never blocks on a full pipe; what is read is kept as
        // it comes, so a run that has to be given up on still returns everything it wrote until then.
        let collected = CollectedOutput()
        let group = DispatchGroup()
        for (pipe, isError) in [(outPipe, false), (errPipe, true)] {
            group.enter()
            DispatchQueue.global().async {
                let descriptor = pipe.fileHandleForReading.fileDescriptor
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        collected.append(buffer[..<count], isError: isError)
                    } else if count == 0 || errno != EINTR {
                        break
                    }
                }
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
            // The whole process group: a program under `umockdev-run` or `timeout` that did not stop would otherwise
            // live on after them, holding the pipes (and, hung in an exit check, spinning on a core).
            let processGroup = process.processIdentifier
            kill(-processGroup, SIGTERM)
            kill(processGroup, SIGTERM)
            let stopped = finished.wait(timeout: .now() + 2) == .success
            // What is left of the group (a grandchild that ignored SIGTERM); the child only while it is not reaped,
            // so that its number, free again, is never signalled.
            kill(-processGroup, SIGKILL)
            if !stopped {
                kill(processGroup, SIGKILL)
                finished.wait()
            }
        }
        // A grandchild that kept the pipes open (it outlived its parent) must not hang the test either: after a
        // while the result is what was read so far. The readers are left to end with the pipes; closing a
        // descriptor a reader still uses would only make it fail, or read whatever file takes the number next.
        _ = group.wait(timeout: .now() + 5)
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

    func append(_ bytes: ArraySlice<UInt8>, isError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isError { err.append(contentsOf: bytes) } else { out.append(contentsOf: bytes) }
    }

    func values() -> (Data, Data) {
        lock.lock()
        defer { lock.unlock() }
        return (out, err)
    }
}
