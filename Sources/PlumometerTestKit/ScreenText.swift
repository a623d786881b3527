/// Where a text stands on a terminal screen's lines, for the tests that read a screen (the live view through a
/// pty, a pad map rendered to lines).
public enum ScreenText {
    /// Every place `text` starts in `lines`, row by row and left to right.
    ///
    /// - Parameters:
    ///   - text: the text to find.
    ///   - lines: the screen, one string a row.
    /// - Returns: the (row, column) of each occurrence, columns counted in characters.
    public static func occurrences(of text: String, in lines: [String]) -> [(row: Int, column: Int)] {
        let wanted = Array(text)
        var found: [(row: Int, column: Int)] = []
        for (row, line) in lines.enumerated() {
            let characters = Array(line)
            guard characters.count >= wanted.count else { continue }
            for column in 0...(characters.count - wanted.count)
            where Array(characters[column..<(column + wanted.count)]) == wanted {
                found.append((row, column))
            }
        }
        return found
    }
}
