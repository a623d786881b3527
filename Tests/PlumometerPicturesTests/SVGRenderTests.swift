import Foundation
import PlumometerTestSupport
import Testing

/// Where `rsvg-convert` (Debian's librsvg2-bin) is, if installed.
private let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// The docs folder of this package.
private let docs = Fixtures.path("docs")

/// The width and height in a PNG's IHDR chunk, or nil when `data` is not a PNG.
private func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
    else { return nil }
    let number = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
}

@Suite(
    "SVG plot through a real renderer (rsvg-convert)",
    .enabled(if: rsvgConvert != nil || Requirements.all, "needs rsvg-convert (apt-get install librsvg2-bin)")
)
struct SVGRenderTests {
    @Test("rsvg-convert renders the three plums to a PNG of the SVG's size, without complaint")
    func rendersToPNG() throws {
        let directory = try Scratch.directory("svg")
        let svg = directory.appendingPathComponent("three-plums.svg")
        let png = directory.appendingPathComponent("three-plums.png")
        let text = threePlumsSVG()
        try text.write(to: svg, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(rsvgConvert ?? "rsvg-convert", ["-o", png.path, svg.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let size = try #require(pngSize(try Data(contentsOf: png)))
        let document = try SVGDocument(text)
        #expect(size.width == Int(document.root.attributes["width"] ?? ""))
        #expect(size.height == Int(document.root.attributes["height"] ?? ""))
        #expect(size.width == 1120)
    }

    @Test(
        "docs/plot-example.svg is what the plotter draws for the three plums today (PLUMOMETER_UPDATE_DOCS=1 redraws it)"
    )
    func docsExampleIsCurrent() throws {
        let svg = docs.appendingPathComponent("plot-example.svg")
        let text = threePlumsSVG()
        if ProcessInfo.processInfo.environment["PLUMOMETER_UPDATE_DOCS"] == "1" {
            try text.write(to: svg, atomically: true, encoding: .utf8)
            let png = docs.appendingPathComponent("plot-example.png")
            let result = try ProcessRunner.run(rsvgConvert ?? "rsvg-convert", ["-o", png.path, svg.path], timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try String(contentsOf: svg, encoding: .utf8) == text, "run with PLUMOMETER_UPDATE_DOCS=1 to redraw")
    }
}
