/// A rectangle in the picture's pixels, y growing downwards.
struct SVGBox: Equatable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var right: Double { x + width }
    var bottom: Double { y + height }

    /// Whether the two boxes come closer than `gap` pixels.
    func overlaps(_ other: SVGBox, gap: Double = 0) -> Bool {
        x < other.right + gap && other.x < right + gap && y < other.bottom + gap && other.y < bottom + gap
    }

    /// Whether `other` lies wholly inside this box.
    func contains(_ other: SVGBox) -> Bool {
        other.x >= x && other.right <= right && other.y >= y && other.bottom <= bottom
    }

    /// The point of the box nearest to (`px`, `py`).
    func nearestPoint(to px: Double, _ py: Double) -> (x: Double, y: Double) {
        (Swift.min(right, Swift.max(x, px)), Swift.min(bottom, Swift.max(y, py)))
    }

    /// Whether the box comes inside the circle at (`cx`, `cy`) of radius `r`.
    func overlaps(circleX cx: Double, _ cy: Double, radius r: Double) -> Bool {
        let near = nearestPoint(to: cx, cy)
        let dx = near.x - cx
        let dy = near.y - cy
        return dx * dx + dy * dy < r * r
    }
}

/// How wide a text is drawn: the advance widths of DejaVu Sans Bold (the picture's first font; Verdana, its
/// fallback, is no wider), so a box computed here holds the text a renderer draws. Characters outside ASCII count
/// one em, wider than any of DejaVu's Latin ones. Kerning only narrows a text, so the sum is an upper bound.
enum SVGTextWidth {
    /// Advances in 1/2048 em of DejaVu Sans Bold for U+0020 to U+007E (its `hmtx` table).
    private static let advances: [Int] = [
        713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425, 1425,
        1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700, 1399, 1399,
        1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483,
        1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134,
        1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716,
    ]

    /// The width of `text` in bold at `size` pixels.
    static func bold(_ text: String, size: Double = 12) -> Double {
        var units = 0
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            units += value >= 0x20 && value < 0x7F ? advances[value - 0x20] : 2048
        }
        return Double(units) / 2048 * size
    }
}

/// Where the surface panel's labels go: each beside its own circle when there is room, else further out along one
/// of 16 directions with a leader line back to the circle; never outside ``bounds``, never over another label or an
/// ``obstacles`` box (tick labels), and over another contact's circle only when no place clear of circles is found.
///
/// Greedy and deterministic: labels are placed in the order asked, each at the candidate with the lowest cost (its
/// distance from the circle, plus a penalty for covering another circle). Boxes keep ``gap`` pixels apart.
struct SVGLabelLayout {
    /// A circle on the surface: a contact's final place.
    struct Circle {
        var x: Double
        var y: Double
        var radius: Double
    }

    /// A label's box, and the leader line from its circle's edge to the box when it does not sit beside it.
    struct Placement {
        var box: SVGBox
        var leader: (x1: Double, y1: Double, x2: Double, y2: Double)?
    }

    /// Where labels may go.
    var bounds: SVGBox
    /// Boxes no label may cover.
    var obstacles: [SVGBox]
    /// Every contact's circle.
    var circles: [Circle]
    /// The boxes placed so far.
    private(set) var placed: [SVGBox] = []
    /// The pixels kept between two boxes.
    let gap = 2.0

    init(bounds: SVGBox, obstacles: [SVGBox], circles: [Circle]) {
        self.bounds = bounds
        self.obstacles = obstacles
        self.circles = circles
    }

    /// The distances from a circle's edge tried, nearest first: beside it, then further out with a leader line.
    private static let distances: [Double] = [3, 10, 20, 34, 52, 76, 108, 150, 200, 270, 360, 480]
    /// Unit vectors (cosine, sine; y downwards) of the directions tried, in order: right, left, above, below, the
    /// four diagonals, then the eight directions between those.
    private static let directions: [(Double, Double)] = {
        let a = 0.923_879_5  // cos 22.5°
        let b = 0.382_683_4  // sin 22.5°
        let d = 0.707_106_8  // cos 45°
        return [
            (1, 0), (-1, 0), (0, -1), (0, 1), (d, -d), (d, d), (-d, -d), (-d, d),
            (a, -b), (a, b), (-a, -b), (-a, b), (b, -a), (b, a), (-b, -a), (-b, a),
        ]
    }()
    /// A leader line is drawn when the box is further than this from its circle.
    private static let leaderBeyond = 8.0

    /// The space around a label's text inside its box, and the text's baseline below the box's top (DejaVu's
    /// ascent is 0.93 em, its descent 0.24 em: 11.1 and 2.8 pixels at 12).
    static let padding = 3.0
    static let baseline = 14.0

    /// The box a bold 12-pixel `text` needs: its width and its height with ``padding`` on every side.
    static func textBox(_ text: String) -> (width: Double, height: Double) {
        ((SVGTextWidth.bold(text) + 2 * padding).rounded(.up), 17)
    }

    /// Places a box of `width` x `height` for circle `index`; nil when no place is left.
    mutating func place(width: Double, height: Double, circle index: Int) -> Placement? {
        let circle = circles[index]
        var best: (cost: Double, box: SVGBox)?
        for (rank, distance) in Self.distances.enumerated() {
            // Nothing further out can beat a clear place already found at this distance.
            if let best, best.cost < distance { break }
            for (order, direction) in Self.directions.enumerated() {
                let (c, s) = direction
                let px = circle.x + (circle.radius + distance) * c
                let py = circle.y + (circle.radius + distance) * s
                // The box's side (or corner) nearest the circle touches the point.
                let box = SVGBox(
                    x: px - width * (1 - c) / 2,
                    y: py - height * (1 - s) / 2,
                    width: width,
                    height: height
                )
                guard fits(box, own: index) else { continue }
                let covered = circles.indices.contains {
                    $0 != index && box.overlaps(circleX: circles[$0].x, circles[$0].y, radius: circles[$0].radius)
                }
                let cost = distance + (covered ? 200 : 0) + Double(order) * 0.01 + Double(rank) * 0.001
                if best.map({ cost < $0.cost }) ?? true { best = (cost, box) }
            }
        }
        guard let found = best else { return nil }
        placed.append(found.box)
        let near = found.box.nearestPoint(to: circle.x, circle.y)
        let dx = near.x - circle.x
        let dy = near.y - circle.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length - circle.radius > Self.leaderBeyond else { return Placement(box: found.box, leader: nil) }
        let edge = (x: circle.x + dx / length * circle.radius, y: circle.y + dy / length * circle.radius)
        return Placement(box: found.box, leader: (edge.x, edge.y, near.x, near.y))
    }

    /// Whether `box` lies inside the bounds, clear of every placed label, every obstacle and its own circle.
    private func fits(_ box: SVGBox, own index: Int) -> Bool {
        guard bounds.contains(box) else { return false }
        let own = circles[index]
        if box.overlaps(circleX: own.x, own.y, radius: own.radius) { return false }
        if placed.contains(where: { $0.overlaps(box, gap: gap) }) { return false }
        return !obstacles.contains { $0.overlaps(box, gap: gap) }
    }
}
