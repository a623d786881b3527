import PlumometerOutput

/// Pieces the SVG writer shares: XML escaping, coordinate text, the palette and 1-2-5 axis ticks.
enum SVGSupport {
    /// Line colours, one per contact in the order they appear (then round again). Yellow is left out: it marks
    /// the heaviest, as in the original app. Tableau's ten, which stay apart for most colour vision.
    static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#ff7f0e", "#393b79",
    ]
    /// The heaviest mark along a line, and the filled circle of the heaviest on the surface.
    static let heaviest = "#f5c400"
    /// Saturation: the trace drawn over in red where the sensor was at its full scale (the weight at least this).
    static let saturated = "#d62728"

    /// `text` safe inside an XML element or a double-quoted attribute; control characters XML 1.0 forbids become
    /// U+FFFD, so a device name can never break the file.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let value = scalar.value
                let allowed =
                    value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value < 0xD800)
                    || (value >= 0xE000 && value < 0xFFFE) || value >= 0x10000
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// A coordinate with at most one decimal: `12`, `12.5`.
    static func number(_ value: Double) -> String { PictureText.trimmed(value, 1) }

    /// Ticks for an axis from 0 to at least `maximum`: the finest 1-2-5 step that needs at most `count + 1`
    /// intervals, and the axis' end (the first tick at or above `maximum`).
    static func ticks(upTo maximum: Double, count: Int = 5) -> (step: Double, end: Double) {
        let top = maximum > 0 && maximum.isFinite ? maximum : 1
        let intervals = Double(Swift.max(1, count) + 1)
        var magnitude = 1.0
        while magnitude * 10 <= top / intervals { magnitude *= 10 }
        while magnitude > top / intervals { magnitude /= 10 }
        var step = magnitude * 10
        for factor in [1.0, 2.0, 5.0, 10.0] where (top / (magnitude * factor) - 1e-9).rounded(.up) <= intervals {
            step = magnitude * factor
            break
        }
        return (step, (top / step - 1e-9).rounded(.up) * step)
    }

    /// A tick's text with just the decimals its step needs: `0.25` for a 0.05 step, `20` for a 10 step.
    static func tickText(_ value: Double, step: Double) -> String {
        var decimals = 0
        var scaled = step
        while decimals < 6 && Swift.abs(scaled - scaled.rounded()) > 1e-9 {
            scaled *= 10
            decimals += 1
        }
        return NumberText.fixed(value, decimals)
    }
}
