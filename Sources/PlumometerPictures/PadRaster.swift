/// Text in runs that share one ANSI SGR style, cut on visible columns so escape sequences never count as columns.
struct StyledLine {
    private var runs: [(text: String, style: String?)] = []

    /// Appends `text` in `style` (an SGR parameter list such as `33`, or nil for the default).
    mutating func append(_ text: String, style: String?) {
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].text += text
        } else {
            runs.append((text, style))
        }
    }

    /// The line, at most `width` visible columns, styled when `colour` is on.
    func text(colour: Bool, width: Int) -> String {
        var remaining = Swift.max(0, width)
        var out = ""
        for run in runs where remaining > 0 {
            let piece = String(run.text.prefix(remaining))
            remaining -= piece.count
            if colour, let style = run.style {
                out += "\u{1B}[" + style + "m" + piece + "\u{1B}[0m"
            } else {
                out += piece
            }
        }
        return out
    }
}

/// The map's pixels and label cells: circles filled into a pixel grid, labels into cells, then turned into lines.
struct PadRaster {
    /// What a pixel shows.
    enum Kind: UInt8 {
        case empty = 0
        case contact = 1
        case heaviest = 2
    }

    /// Where a circle landed: its centre cell and the cells its pixels cover.
    struct Circle {
        var centreColumn: Int
        var centreRow: Int
        var minColumn: Int
        var maxColumn: Int
        var minRow: Int
        var maxRow: Int
        /// The cells its pixels cover, as `row * columns + column`.
        var cells: Set<Int> = []
        /// Its place in the order circles were filled.
        var index = 0
    }

    /// The SGR style of the heaviest contact's fill (yellow), and of its label (bold yellow).
    static let heaviestStyle = "33"
    static let heaviestLabelStyle = "1;33"

    let columns: Int
    let rows: Int
    let pixelsPerCell: Int
    private var pixels: [Kind]
    private var labels: [(text: String, column: Int, row: Int, heaviest: Bool)] = []
    /// Every circle filled so far, for the distances a label is placed by.
    private var circles: [Circle] = []

    init(columns: Int, rows: Int, pixelsPerCell: Int) {
        self.columns = columns
        self.rows = rows
        self.pixelsPerCell = pixelsPerCell
        self.pixels = Array(repeating: .empty, count: columns * rows * pixelsPerCell)
    }

    /// Fills the circle of a contact at (`centreX`, `centreY`) (fractions of the surface) for `force` (0...1 of the
    /// largest circle's).
    mutating func fill(centreX: Double, centreY: Double, force: Double, kind: Kind) -> Circle {
        // Units: a cell is 1 wide and 2 tall; a pixel is 1 wide and 2 / pixelsPerCell tall.
        let pixelHeight = 2 / Double(pixelsPerCell)
        let pixelRows = rows * pixelsPerCell
        let x = centreX * Double(columns)
        let y = centreY * Double(rows) * 2
        let largest = 0.25 * Double(Swift.min(columns, rows * 2))
        let smallest = 0.6
        let radius = smallest + Swift.max(0, largest - smallest) * Swift.max(0, Swift.min(1, force)).squareRoot()
        let centreColumn = Swift.min(columns - 1, Swift.max(0, Int(x)))
        let centrePixelRow = Swift.min(pixelRows - 1, Swift.max(0, Int(y / pixelHeight)))
        var circle = Circle(
            centreColumn: centreColumn,
            centreRow: centrePixelRow / pixelsPerCell,
            minColumn: centreColumn,
            maxColumn: centreColumn,
            minRow: centrePixelRow / pixelsPerCell,
            maxRow: centrePixelRow / pixelsPerCell
        )
        set(column: centreColumn, pixelRow: centrePixelRow, kind: kind, circle: &circle)
        let firstColumn = Swift.max(0, Int((x - radius).rounded(.down)))
        let lastColumn = Swift.min(columns - 1, Int((x + radius).rounded(.up)))
        let firstRow = Swift.max(0, Int(((y - radius) / pixelHeight).rounded(.down)))
        let lastRow = Swift.min(pixelRows - 1, Int(((y + radius) / pixelHeight).rounded(.up)))
        circle.index = circles.count
        defer { circles.append(circle) }
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return circle }
        for pixelRow in firstRow...lastRow {
            let dy = (Double(pixelRow) + 0.5) * pixelHeight - y
            for column in firstColumn...lastColumn {
                let dx = Double(column) + 0.5 - x
                if dx * dx + dy * dy <= radius * radius {
                    set(column: column, pixelRow: pixelRow, kind: kind, circle: &circle)
                }
            }
        }
        return circle
    }

    private mutating func set(column: Int, pixelRow: Int, kind: Kind, circle: inout Circle) {
        pixels[pixelRow * columns + column] = kind
        let row = pixelRow / pixelsPerCell
        circle.cells.insert(row * columns + column)
        circle.minColumn = Swift.min(circle.minColumn, column)
        circle.maxColumn = Swift.max(circle.maxColumn, column)
        circle.minRow = Swift.min(circle.minRow, row)
        circle.maxRow = Swift.max(circle.maxRow, row)
    }

    /// Places `text` for `circle` by the rule in ``PadMap``'s documentation; false when it fits nowhere.
    mutating func place(label text: String, beside circle: Circle, heaviest: Bool) -> Bool {
        let length = text.count
        guard length <= columns else { return false }
        // The rows: directly above, directly below, then on the circle (its centre row first).
        var rows = [circle.minRow - 1, circle.maxRow + 1, circle.centreRow]
        rows += (circle.minRow...circle.maxRow).filter { $0 != circle.centreRow }
        // The columns: centred on the circle, then shifted a column at a time either way, as long as the label
        // still spans the circle's centre column.
        let centred = circle.centreColumn - length / 2
        var starts: [Int] = [centred]
        for shift in 1..<Swift.max(1, length) {
            starts += [centred - shift, centred + shift]
        }
        starts = starts.filter { $0 <= circle.centreColumn && $0 + length > circle.centreColumn }
        for row in rows {
            for start in starts {
                let column = Swift.min(Swift.max(0, start), columns - length)
                if fits(column: column, row: row, length: length), belongs(column: column, row: row, length, circle) {
                    labels.append((text, column, row, heaviest))
                    return true
                }
            }
        }
        return false
    }

    /// Whether a label at (`column`, `row`) of `length` cells lies nearer `own` than every other circle, measured
    /// from the whole label to the nearest cell of each (a cell 1 wide and 2 tall), and touches no other circle.
    private func belongs(column: Int, row: Int, _ length: Int, _ own: Circle) -> Bool {
        let ownDistance = distance(column: column, row: row, length, own)
        for other in circles where other.index != own.index {
            if distance(column: column, row: row, length, other) <= ownDistance { return false }
        }
        return true
    }

    /// The squared distance, in units of a cell's width, from the label's cells to the nearest cell of `circle`.
    private func distance(column: Int, row: Int, _ length: Int, _ circle: Circle) -> Int {
        var nearest = Int.max
        for cell in circle.cells {
            let cellRow = cell / columns
            let cellColumn = cell % columns
            let dx = Swift.max(0, column - cellColumn, cellColumn - (column + length - 1))
            let dy = 2 * (cellRow - row)
            nearest = Swift.min(nearest, dx * dx + dy * dy)
        }
        return nearest
    }

    /// Whether a label fits at (`column`, `row`): inside the surface, a blank column from every label on the row.
    private func fits(column: Int, row: Int, length: Int) -> Bool {
        guard row >= 0, row < rows, column >= 0, column + length <= columns else { return false }
        for label in labels where label.row == row {
            // One blank column between two labels on a row.
            if column <= label.column + label.text.count && label.column <= column + length { return false }
        }
        return true
    }

    /// The strongest kind among a cell's pixels.
    private func kind(column: Int, row: Int) -> Kind {
        var strongest = Kind.empty
        for pixel in 0..<pixelsPerCell {
            let kind = pixels[(row * pixelsPerCell + pixel) * columns + column]
            if kind.rawValue > strongest.rawValue { strongest = kind }
        }
        return strongest
    }

    /// The framed surface as screen lines.
    func lines(charset: PadMapCharset, colour: Bool) -> [String] {
        let unicode = charset == .unicode
        let horizontal = String(repeating: unicode ? "\u{2500}" : "-", count: columns)
        let side = unicode ? "\u{2502}" : "|"
        var lines = [unicode ? "\u{250C}" + horizontal + "\u{2510}" : "+" + horizontal + "+"]
        for row in 0..<rows {
            var cells: [(glyph: String, style: String?)] = (0..<columns).map {
                glyph(column: $0, row: row, unicode, colour)
            }
            for label in labels where label.row == row {
                for (offset, character) in label.text.enumerated() {
                    cells[label.column + offset] = (String(character), label.heaviest ? Self.heaviestLabelStyle : nil)
                }
            }
            var line = StyledLine()
            line.append(side, style: nil)
            for cell in cells { line.append(cell.glyph, style: cell.style) }
            line.append(side, style: nil)
            lines.append(line.text(colour: colour, width: columns + 2))
        }
        lines.append(unicode ? "\u{2514}" + horizontal + "\u{2518}" : "+" + horizontal + "+")
        return lines
    }

    /// One cell's character and style. Unicode: half blocks for the two pixels; without colour any heaviest pixel
    /// makes the cell `▓`. ASCII: `o` for a contact, `#` for the heaviest.
    private func glyph(column: Int, row: Int, _ unicode: Bool, _ colour: Bool) -> (String, String?) {
        let strongest = kind(column: column, row: row)
        let style = strongest == .heaviest && colour ? Self.heaviestStyle : nil
        guard unicode else {
            switch strongest {
            case .empty: return (" ", nil)
            case .contact: return ("o", nil)
            case .heaviest: return ("#", style)
            }
        }
        if strongest == .heaviest && !colour { return ("\u{2593}", nil) }
        let top = pixels[(row * 2) * columns + column] != .empty
        let bottom = pixels[(row * 2 + 1) * columns + column] != .empty
        switch (top, bottom) {
        case (true, true): return ("\u{2588}", style)
        case (true, false): return ("\u{2580}", style)
        case (false, true): return ("\u{2584}", style)
        case (false, false): return (" ", nil)
        }
    }
}
