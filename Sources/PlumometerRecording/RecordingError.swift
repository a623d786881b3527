/// A recording that cannot be read: where (file and line) and what is wrong, in one sentence.
///
/// The description reads like a compiler diagnostic, `demo.evemu:12: expected 6 numbers after 'A:' ...`, so
/// that an editor or a terminal can jump to the line. Readers stop at the first error: a recording is data
/// captured by a tool, so one bad line means the rest cannot be trusted to line up with the description.
public struct RecordingError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file name the caller gave the reader (not necessarily a path on disk).
    public var file: String
    /// The 1-based line number, or nil when the problem is not tied to one line (an empty file).
    public var line: Int?
    /// What is wrong, starting with a lowercase letter, without a trailing period.
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message` when there is no line.
    public var description: String { location(file, line) + ": " + message }
}

/// Something a reader accepted but a user should hear about: `file:line: warning: message`.
public struct RecordingWarning: CustomStringConvertible, Hashable, Sendable {
    /// The file name the caller gave the reader.
    public var file: String
    /// The 1-based line number, or nil when the warning is not tied to one line.
    public var line: Int?
    /// What was accepted and how it was read, starting with a lowercase letter, without a trailing period.
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: warning: message`, or `file: warning: message` when there is no line.
    public var description: String { location(file, line) + ": warning: " + message }
}

/// Where a diagnostic points, as compilers write it: `file:line`, or `file` when it is not tied to one line.
private func location(_ file: String, _ line: Int?) -> String {
    line.map { "\(file):\($0)" } ?? file
}
