/// A source whose end does not end the run: `serve --replay` keeps the recording's last state served, to every
/// client and on every request, until it is stopped (Ctrl-C, SIGTERM).
public final class HeldSource: FrameSource {
    private let source: any FrameSource
    private let ended: () throws -> Void
    /// Whether the source has ended.
    public private(set) var hasEnded = false

    /// - Parameter ended: called once when `source` ends (the pipeline writes what `--interval` held back).
    public init(_ source: any FrameSource, ended: @escaping () throws -> Void) {
        self.source = source
        self.ended = ended
    }

    public func due() throws -> Due {
        guard !hasEnded else { return .idle }
        let due = try source.due()
        guard due == .finished else { return due }
        hasEnded = true
        try ended()
        return .idle
    }
}
