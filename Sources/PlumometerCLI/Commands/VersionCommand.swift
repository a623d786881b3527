import PlumometerSession

extension VersionCommand: Command {
    static let spec = CommandSpec(
        name: "version",
        summary: "Show the version (also 'plumometer --version' and '-V').",
        options: [],
        examples: ["plumometer version"]
    )
}

/// `plumometer version`, also `plumometer --version`: `plumometer 0.1.0` on stdout, and which commit it was built
/// from when that is not the release's tag: `plumometer 0.1.0 (commit ce0d5ae8a3c4)`.
enum VersionCommand {
    static func run(_ arguments: ParsedArguments) throws {
        try StandardOutput.write(line + "\n")
    }

    /// The line `--version` prints (the version, then the commit when there is one).
    static var line: String {
        guard let commit = BuildVersion.commit else { return "plumometer \(CommandRegistry.version)" }
        return "plumometer \(CommandRegistry.version) (commit \(commit))"
    }
}
