public import PlumometerCore
public import PlumometerOutput

/// The characters a terminal picture may use.
public enum PadMapCharset: Hashable, Sendable {
    /// Box drawing and block elements: half blocks (`▀▄█`) give two square-ish pixels per cell.
    case unicode
    /// Printable ASCII only (`+-|`, `o`, `#`): for a non-UTF-8 locale and `TERM=dumb`.
    case ascii
}

/// The live map: the surface drawn to scale in the terminal, each contact a filled circle at its position whose
/// area grows with its force, its label beside it, the heaviest filled yellow; the picture the original
/// Plum-O-Meter drew under each plum, in character cells.
///
/// A pure renderer: a reading in, screen lines out (with ANSI SGR colour when ``colour`` is on), no terminal I/O.
///
/// Scale: a terminal cell is about twice as tall as it is wide, so a cell counts as 1 x 2 units; the surface
/// (millimetres when both position axes declare a resolution, else device units) is scaled by one factor on both
/// axes to the largest size the window holds, so the aspect ratio is kept. Unicode splits each cell into two
/// pixels (upper and lower half block), ASCII draws one pixel per cell.
///
/// Circles: radius `rMin + (rMax - rMin) * sqrt(force / forceScale)` so the area grows with the force, `rMax` a
/// quarter of the surface's shorter side and ``forceScale`` the force that fills it (the live view's auto-range, so
/// plums at 2% of a 6 kg pad are not all dots); the pixel under a contact's position is always filled, so even a feather shows.
/// Lighter contacts are drawn first, so a heavier one lies on top where circles overlap, the heaviest last.
///
/// Labels (`#17 30.0% 72 g`, `#18 45.0%`: the contact's name, its percent of full scale, its weight when known; `=`
/// after it when stable, as in the text lines, `>` before the figures when saturated) belong to one circle at a
/// glance: each lies directly above its circle, directly below it, or on it (its centre row first), centred on it
/// or shifted so that it still spans the circle's centre column; it must lie inside the surface, keep a blank
/// column from every label already placed, and be nearer its own circle than any other, measured from its every
/// cell (name included) to the nearest cell of each circle, a cell counting 1 wide and 2 tall. Contacts are taken
/// from left to right (ties by id), each at its first place that fits; a label that fits nowhere is tried as the
/// name alone (`#17`), and is otherwise left out and counted in the legend as unlabelled.
public struct PadMap: Sendable {
    /// The surface's shape.
    public var geometry: PadGeometry
    /// The columns the map may use, frame included.
    public var columns: Int
    /// The rows the map may use: frame and legend line included.
    public var rows: Int
    /// Unicode block cells or ASCII.
    public var charset: PadMapCharset
    /// Whether to use ANSI colour (off with `NO_COLOR`: the heaviest then has its own fill character).
    public var colour: Bool
    /// The unit of weights in labels.
    public var unit: WeightUnit
    /// The force (fraction of full scale, 0...1) drawn as the largest circle; larger forces are drawn at that size.
    public var forceScale: Double

    /// A map of a surface in a window of `columns` x `rows` cells.
    public init(
        geometry: PadGeometry,
        columns: Int,
        rows: Int,
        charset: PadMapCharset = .unicode,
        colour: Bool = true,
        unit: WeightUnit = .grams,
        forceScale: Double = 1
    ) {
        self.forceScale = forceScale
        self.geometry = geometry
        self.columns = columns
        self.rows = rows
        self.charset = charset
        self.colour = colour
        self.unit = unit
    }

    /// A map of `device`, or nil when it declares no position ranges (then the bars are the live view).
    public init?(
        device: DeviceDescription,
        columns: Int,
        rows: Int,
        charset: PadMapCharset = .unicode,
        colour: Bool = true,
        unit: WeightUnit = .grams,
        forceScale: Double = 1
    ) {
        guard let geometry = PadGeometry(device: device) else { return nil }
        self.init(
            geometry: geometry,
            columns: columns,
            rows: rows,
            charset: charset,
            colour: colour,
            unit: unit,
            forceScale: forceScale
        )
    }

    /// The surface's size in cells inside the frame, or nil when the window is too small for a map.
    public var surfaceCells: (columns: Int, rows: Int)? {
        let innerColumns = columns - 2
        let innerRows = rows - 3
        guard innerColumns >= 4, innerRows >= 2 else { return nil }
        // A cell is 1 unit wide and 2 tall; one scale for both axes keeps the shape.
        let scale = Swift.min(Double(innerColumns) / geometry.width, Double(2 * innerRows) / geometry.height)
        let width = Swift.min(innerColumns, Swift.max(1, Int((geometry.width * scale).rounded())))
        let height = Swift.min(innerRows, Swift.max(1, Int((geometry.height * scale / 2).rounded())))
        return (width, height)
    }

    /// The screen lines for `reading`: the framed surface with its circles and labels, then the legend line.
    /// Each line is at most ``columns`` visible columns; escape sequences, when ``colour`` is on, take none.
    public func render(_ reading: Reading) -> [String] { drawn(reading).lines }

    /// The screen lines for `reading` when the map shows every contact with its circle and its whole label (name
    /// and weight), and the surface is at least three rows; nil otherwise, so the live view shows the bars instead
    /// of a map that leaves something out (the map, then the bars, then a line per object as the terminal shrinks).
    public func renderWhole(_ reading: Reading) -> [String]? {
        guard let cells = surfaceCells, cells.rows >= 3 else { return nil }
        let (lines, incomplete) = drawn(reading)
        return incomplete == 0 ? lines : nil
    }

    /// The lines, and how many contacts have no whole label (their name alone, or none).
    private func drawn(_ reading: Reading) -> (lines: [String], incomplete: Int) {
        guard let cells = surfaceCells else {
            return ([legend(unlabelled: 0, unplaced: 0)], 0)
        }
        var raster = PadRaster(
            columns: cells.columns,
            rows: cells.rows,
            pixelsPerCell: charset == .unicode ? 2 : 1
        )
        let placed = reading.contacts.filter { $0.x != nil && $0.y != nil }
        // Lighter first, the heaviest last: the heavier circle lies on top.
        let drawOrder = placed.sorted {
            ($0.heaviest ? 1 : 0, $0.force, $0.id) < ($1.heaviest ? 1 : 0, $1.force, $1.id)
        }
        var circles: [Int: PadRaster.Circle] = [:]
        for contact in drawOrder {
            circles[contact.id] = raster.fill(
                centreX: geometry.fractionX(contact.x!),
                centreY: geometry.fractionY(contact.y!),
                force: forceScale > 0 ? contact.force / forceScale : 1,
                kind: contact.heaviest ? .heaviest : .contact
            )
        }
        var unlabelled = 0
        var incomplete = 0
        let leftToRight = placed.sorted {
            (circles[$0.id]!.centreColumn, $0.id) < (circles[$1.id]!.centreColumn, $1.id)
        }
        for contact in leftToRight {
            // The whole label, else the name alone (the bars view has the rest), else none, counted in the legend.
            let forms = [label(of: contact), "#" + String(contact.id)]
            let labelled = forms.firstIndex {
                raster.place(label: $0, beside: circles[contact.id]!, heaviest: contact.heaviest)
            }
            if labelled == nil { unlabelled += 1 }
            if labelled != 0 { incomplete += 1 }
        }
        var lines = raster.lines(charset: charset, colour: colour)
        lines.append(legend(unlabelled: unlabelled, unplaced: reading.contacts.count - placed.count))
        return (lines, incomplete)
    }

    /// A contact's label: its name, then its percent of full scale and its weight when known (`#17 30.0% 72 g`,
    /// `#18 45.0%`), with `=` when stable (as the text lines mark it; `*` is the heaviest's mark in every view) and
    /// `>` before the figures when saturated (at least this much).
    ///
    /// The name is the one every output gives a contact: `#` and its id (the JSON's and CSV's `id`, the kernel's
    /// tracking id), as in the bars, the text lines, the summary and the plot; the heaviest is told by its fill.
    public func label(of contact: ContactReading) -> String {
        var text = "#" + String(contact.id) + " " + (contact.saturated ? ">" : "")
        text += NumberText.fixed(contact.percent, 1) + "%"
        if let grams = contact.grams { text += " " + unit.label(grams: grams) }
        return text + (contact.stable ? "=" : "")
    }

    /// The legend: what the fills and marks mean, the surface's size, and how many contacts are not shown whole, in
    /// at most ``columns`` visible columns: whole parts are left out, the force scale's figure first, then the pad's
    /// size, then the force scale, then the stable mark, never the counts of what is missing, so nothing is cut
    /// inside a word.
    func legend(unlabelled: Int, unplaced: Int) -> String {
        let (contact, heaviest) = charset == .unicode ? ("\u{2588}", colour ? "\u{2588}" : "\u{2593}") : ("o", "#")
        let times = charset == .unicode ? "\u{00D7}" : "x"
        let size = "size ~ force (largest " + PictureText.trimmed(forceScale * 100, 1) + "%)"
        let pad =
            "pad " + NumberText.fixed(geometry.width, 0) + times + NumberText.fixed(geometry.height, 0)
            + (geometry.inMillimetres ? " mm" : " units")
        // The parts after the fills, each with the order it is left out in (lowest first; nil: kept).
        var parts: [(text: String, drop: Int?)] = [("= stable", 3), ("size ~ force", 2), (pad, 1)]
        if forceScale < 1 { parts.insert((size, 0), at: 1) }
        if unlabelled > 0 { parts.append(("\(unlabelled) unlabelled", nil)) }
        if unplaced > 0 { parts.append(("\(unplaced) without position", nil)) }
        var dropped: Set<Int> = []
        func tail() -> String {
            // The scale's two forms are one part: its long form while it is there, else the short one.
            let shown = parts.enumerated().filter { index, part in
                guard !dropped.contains(index) else { return false }
                return part.drop != 2 || forceScale >= 1 || dropped.contains(index - 1)
            }
            return shown.map { "  " + $0.element.text }.joined()
        }
        let head = contact + " contact  " + heaviest + " heaviest"
        for level in 0...3 where head.count + tail().count > columns {
            for (index, part) in parts.enumerated() where part.drop == level { dropped.insert(index) }
        }
        var line = StyledLine()
        line.append(contact + " contact  ", style: nil)
        line.append(heaviest, style: PadRaster.heaviestStyle)
        line.append(" heaviest" + tail(), style: nil)
        return line.text(colour: colour, width: columns)
    }
}
