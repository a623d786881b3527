import Foundation
import FoundationXML

/// An SVG file parsed by a real XML parser (Foundation's `XMLParser`, libxml2 underneath): the elements in document
/// order with their attributes and text, so tests read the picture the way a renderer does.
struct SVGDocument {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        /// The names of the enclosing elements, outermost first.
        var path: [String]
        /// The ids of the enclosing groups, outermost first.
        var groups: [String]
    }

    private(set) var elements: [Element] = []

    /// Parses `text`; throws with the parser's error (line and column) when it is not well-formed XML.
    init(_ text: String) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw ParseError(
                message: "\(parser.parserError.map(String.init(describing:)) ?? "?") at line \(parser.lineNumber)"
            )
        }
        elements = delegate.elements
    }

    struct ParseError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The root element.
    var root: Element { elements[0] }

    /// Every element named `name`, optionally only those with `class` = `className`.
    func all(_ name: String, class className: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (className == nil || $0.attributes["class"] == className) }
    }

    /// The points of a polyline, as (x, y) pairs.
    static func points(_ element: Element) -> [(x: Double, y: Double)] {
        (element.attributes["points"] ?? "").split(separator: " ").map { pair in
            let parts = pair.split(separator: ",")
            return (Double(parts[0])!, Double(parts[1])!)
        }
    }

    /// The value axis read off the picture like a person would: two tick labels and where they are drawn,
    /// giving value = a + b * y.
    func valueOfY() -> (Double) -> Double {
        let ticks = all("text", class: "ytick").map { (value: Double($0.text)!, y: Double($0.attributes["y"]!)! - 4) }
        let low = ticks.first!
        let high = ticks.last!
        return { y in low.value + (y - low.y) * (high.value - low.value) / (high.y - low.y) }
    }

    /// The time axis, likewise: seconds for an x.
    func secondsOfX() -> (Double) -> Double {
        let ticks = all("text", class: "xtick").map { (value: Double($0.text)!, x: Double($0.attributes["x"]!)!) }
        let low = ticks.first!
        let high = ticks.last!
        return { x in low.value + (x - low.x) * (high.value - low.value) / (high.x - low.x) }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [Int] = []

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let path = open.map { elements[$0].name }
            let groups = open.compactMap { elements[$0].name == "g" ? elements[$0].attributes["id"] : nil }
            elements.append(Element(name: elementName, attributes: attributes, path: path, groups: groups))
            open.append(elements.count - 1)
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let last = open.last { elements[last].text += string }
        }
    }
}
