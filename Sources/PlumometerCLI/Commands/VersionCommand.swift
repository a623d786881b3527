import PlumometerSession

extension VersionCommand: Command {
    static let spec = CommandSpec(
        name: "version",
        summary: "Show the version (also 'plumometer --version' and '-V').",
        options: [],
        examples: ["plumometer version"]
    )
}

/// `plumometer version`, also `plumometer --version`: `plumometer 0.1.0` on stdout.
enum VersionCommand {
    static func run(_ arguments: ParsedArguments) throws {
        try StandardOutput.write("plumometer \(CommandRegistry.version)\n")
    }
}
