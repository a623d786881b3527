import PlumometerOutput

/// A failure caused by a typed error, which it keeps whole on its way to the CLI's entry point: what was being
/// done, the cause itself (its type and fields intact for whoever catches it), and what that means.
///
/// Nothing flattens the cause into a string on the way: only the entry point turns the failure into one sentence,
/// `context`, the cause's description, `consequence` (exit status 1).
public struct CommandFailure: Error, CustomStringConvertible {
    /// The words before the cause: `cannot list input devices: `.
    public let context: String
    /// The typed error that made the command fail.
    public let cause: any Error
    /// The words after the cause: ` Nothing was saved.`
    public let consequence: String
    /// Whether the sentence quotes names from a file or a device (a profile's, a device's), whose control characters
    /// are then made visible (``Swift/String/forTerminalName``): a line feed in a name must not break the message
    /// into lines that look like more output.
    public let quotesNames: Bool

    /// A failure of `context`, caused by `cause`, meaning `consequence`.
    public init(_ context: String, cause: any Error, _ consequence: String = "", quotesNames: Bool = false) {
        self.context = context
        self.cause = cause
        self.consequence = consequence
        self.quotesNames = quotesNames
    }

    public var description: String {
        let sentence = context + String(describing: cause) + consequence
        return quotesNames ? sentence.forTerminalName : sentence
    }
}
