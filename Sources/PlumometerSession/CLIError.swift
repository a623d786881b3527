/// A failure the CLI reports as one sentence on stderr and exit status 1.
public enum CLIError: Error, CustomStringConvertible {
    /// A runtime failure: the message names the device or file, what went wrong and what to do.
    case runtime(String)

    public var description: String {
        switch self {
        case .runtime(let message): message
        }
    }
}
