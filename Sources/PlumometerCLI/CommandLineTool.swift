/// The `plumometer` command-line tool.
public enum CommandLineTool {
    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        0
    }
}
