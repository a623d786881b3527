import PlumometerLinux
import PlumometerOutput

extension ParsedArguments {
    /// Refuses, before anything is opened, an output that names the same file as one of the command's inputs or as
    /// another of its outputs (`calibrate --replay d.evemu -o d.evemu`, `stream -o F --record F`): writing it would
    /// destroy what is read, or mix two outputs in one file. `-` (standard input or output) is no file here; the
    /// writers check again by identity when they open (`OutputFile`), for what only the open shows (stdin
    /// redirected from the output).
    /// - Parameters:
    ///   - outputs: each output given, with the option that named it (`-o`, `--record`).
    ///   - inputs: each input file given, with the option that named it (`--replay`, `FILE`, `--profile`).
    /// - Throws: ``UsageError`` naming both options and the file.
    func refuseSameFiles(outputs: [(String, String?)], inputs: [(String, String?)]) throws(UsageError) {
        let outputs = outputs.compactMap { option, path in path.flatMap { $0 == "-" ? nil : (option, $0) } }
        let inputs = inputs.compactMap { option, path in path.flatMap { $0 == "-" ? nil : (option, $0) } }
        for (index, (option, path)) in outputs.enumerated() {
            for (inputOption, input) in inputs where OpenFiles.same(path, input) {
                throw usageError(
                    "\(option) \(path.forTerminalName) is the file \(inputOption) reads: writing it would destroy it. "
                        + "Give another file."
                )
            }
            for (otherOption, other) in outputs[(index + 1)...] where OpenFiles.same(path, other) {
                throw usageError(
                    "\(option) and \(otherOption) name the same file (\(path.forTerminalName)): give each its own file."
                )
            }
        }
    }
}
