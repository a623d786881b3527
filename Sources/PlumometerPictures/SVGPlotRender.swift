public import PlumometerOutput

/// The page's layout in pixels: margins, the time plot, the legend rows and the surface panel.
struct SVGLayout {
    let left = 80.0
    let plotTop = 84.0
    let plotHeight = 320.0
    let plotWidth: Double
    var plotBottom: Double { plotTop + plotHeight }
    var width: Double { left + plotWidth + 40 }
    var legendTop: Double { plotBottom + 66 }
    var padHeadingTop: Double { legendTop + 62 }
    var padTop: Double { padHeadingTop + 14 }
    let padMaximumHeight = 360.0
    /// The summary table beside the surface: its width, and at most this many contact rows.
    let summaryWidth = 380.0
    static let summaryRows = 16
    static let summaryRowHeight = 19.0
}

/// The value axis: its end, tick step, title and the factor from stored values (grams or percent) to it.
struct SVGValueAxis {
    var end: Double
    var step: Double
    var title: String
    var factor: Double
}

extension SVGPlot {
    /// The plot as a self-contained SVG 1.1 document (no external references, every text escaped for XML).
    ///
    /// - Parameters:
    ///   - title: the heading, e.g. `plumometer plot`.
    ///   - device: the device's name.
    ///   - file: the recording's file name.
    ///   - date: the date to show (the caller's choice: the recording's, or today's).
    ///   - unit: the unit weights are shown in, when the readings carry grams.
    ///   - source: where the values come from, shown under the title (`grams from the calibration profile ...`,
    ///     `percent of full scale: ...`), or nil for no such line.
    /// - Returns: the document's text, UTF-8 when written out.
    public func render(
        title: String,
        device: String,
        file: String,
        date: String,
        unit: WeightUnit = .grams,
        source: String? = nil
    ) -> String {
        let layout = SVGLayout(plotWidth: Double(columns))
        let padSize = padPixels(layout)
        let summaryHeight = Double(Swift.min(SVGLayout.summaryRows, summarizer.summary().contacts.count)) * 19 + 60
        let height = (layout.padTop + Swift.max(padSize?.height ?? 0, summaryHeight) + 36).rounded()
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(Int(layout.width))\" "
        out += "height=\"\(Int(height))\" viewBox=\"0 0 \(Int(layout.width)) \(Int(height))\" "
        out += "font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"12\">\n"
        out += "<title>" + SVGSupport.escaped(title + ": " + file) + "</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        out += text(layout.left, 32, title, attributes: "font-size=\"20\" font-weight=\"bold\"")
        out += text(
            layout.left,
            54,
            device + "  \u{00B7}  " + file + "  \u{00B7}  " + date,
            attributes: "fill=\"#555\""
        )
        if let source { out += text(layout.left, 72, source, attributes: "id=\"source\" fill=\"#555\"") }
        let axis = valueAxis(unit: unit)
        out += timePlot(layout, axis: axis)
        out += legend(layout, axis: axis, unit: unit)
        // The table at the right edge, so a narrow (portrait) surface leaves room for its labels between the two.
        let tableLeft = padSize == nil ? layout.left : layout.left + layout.plotWidth - layout.summaryWidth
        if let padSize {
            out += padPanel(layout, size: padSize, unit: unit, right: tableLeft - 12, bottom: height - 4)
        }
        out += summaryTable(left: tableLeft, top: layout.padTop, unit: unit)
        out += "</svg>\n"
        return out
    }

    private func valueAxis(unit: WeightUnit) -> SVGValueAxis {
        let largest = Double(series.lazy.flatMap { $0.buckets.lazy.map(\.maximum) }.max() ?? 0)
        if grams == true {
            let factor = unit.value(fromGrams: 1)
            // 2% headroom, so a line at the top tick does not run along the frame.
            let ticks = SVGSupport.ticks(upTo: largest * factor * 1.02)
            return SVGValueAxis(
                end: ticks.end,
                step: ticks.step,
                title: "weight (\(unit.rawValue))",
                factor: factor
            )
        }
        let ticks = SVGSupport.ticks(upTo: Swift.min(100, largest * 1.02))
        return SVGValueAxis(
            end: ticks.end,
            step: ticks.step,
            title: "force (% of full scale)",
            factor: 1
        )
    }

    /// Seconds covered, from the first reading to the last (one bucket when they coincide).
    var duration: Double {
        guard let origin, let latest, latest > origin else { return Double(bucketMicroseconds) / 1_000_000 }
        return latest.seconds(since: origin)
    }

    /// The x of bucket `index`'s centre.
    func x(bucket index: Int, _ layout: SVGLayout) -> Double {
        let seconds = Swift.min(duration, (Double(index) + 0.5) * Double(bucketMicroseconds) / 1_000_000)
        return layout.left + seconds / duration * layout.plotWidth
    }

    func y(_ value: Float, _ layout: SVGLayout, _ axis: SVGValueAxis) -> Double {
        let scaled = Swift.min(1.02, Double(value) * axis.factor / axis.end)
        return layout.plotBottom - scaled * layout.plotHeight
    }

    func text(_ x: Double, _ y: Double, _ content: String, attributes: String = "") -> String {
        "<text x=\"" + SVGSupport.number(x) + "\" y=\"" + SVGSupport.number(y) + "\""
            + (attributes.isEmpty ? "" : " " + attributes) + ">" + SVGSupport.escaped(content) + "</text>\n"
    }

    func colour(_ index: Int) -> String { SVGSupport.palette[index % SVGSupport.palette.count] }

    /// Panel 1: axes and ticks, stable windows, heaviest marks, one line per contact, lifts and resyncs.
    private func timePlot(_ layout: SVGLayout, axis: SVGValueAxis) -> String {
        let left = layout.left
        let right = left + layout.plotWidth
        var out = "<g id=\"time-plot\">\n"
        out += "<rect x=\"\(Int(left))\" y=\"\(Int(layout.plotTop))\" width=\"\(Int(layout.plotWidth))\" "
        out += "height=\"\(Int(layout.plotHeight))\" fill=\"#fbfbfb\" stroke=\"#888\"/>\n"
        var tick = 0.0
        while tick <= axis.end + axis.step * 1e-6 {
            let ty = layout.plotBottom - tick / axis.end * layout.plotHeight
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(right))\" y1=\"\(SVGSupport.number(ty))\" "
            out += "y2=\"\(SVGSupport.number(ty))\" stroke=\"#e4e4e4\"/>\n"
            out += text(
                left - 8,
                ty + 4,
                SVGSupport.tickText(tick, step: axis.step),
                attributes: "class=\"ytick\" text-anchor=\"end\""
            )
            tick += axis.step
        }
        let minutes = duration > 600
        let timeScale = minutes ? 60.0 : 1.0
        let timeTicks = SVGSupport.ticks(upTo: duration / timeScale, count: 10)
        var time = 0.0
        while time <= duration / timeScale + timeTicks.step * 1e-6 {
            let tx = left + time * timeScale / duration * layout.plotWidth
            out +=
                "<line x1=\"\(SVGSupport.number(tx))\" x2=\"\(SVGSupport.number(tx))\" y1=\"\(Int(layout.plotBottom))\" "
            out += "y2=\"\(Int(layout.plotBottom + 5))\" stroke=\"#888\"/>\n"
            out += text(
                tx,
                layout.plotBottom + 19,
                SVGSupport.tickText(time, step: timeTicks.step),
                attributes: "class=\"xtick\" text-anchor=\"middle\""
            )
            time += timeTicks.step
        }
        out += text(
            left + layout.plotWidth / 2,
            layout.plotBottom + 40,
            minutes ? "time (min)" : "time (s)",
            attributes: "text-anchor=\"middle\" fill=\"#333\""
        )
        let middle = SVGSupport.number(layout.plotTop + layout.plotHeight / 2)
        out += "<text x=\"0\" y=\"0\" transform=\"translate(24 \(middle)) rotate(-90)\" text-anchor=\"middle\" "
        out += "fill=\"#333\">" + SVGSupport.escaped(axis.title) + "</text>\n"
        out += "<g id=\"stable\">\n"
        for (index, line) in series.enumerated() {
            for run in runs(line.buckets, where: \.stable) {
                let slice = line.buckets[run]
                let top = y(slice.map(\.maximum).max()!, layout, axis) - 5
                let bottom = y(slice.map(\.minimum).min()!, layout, axis) + 5
                let x0 = x(bucket: line.firstBucket + run.lowerBound, layout) - 0.5
                let x1 = x(bucket: line.firstBucket + run.upperBound - 1, layout) + 0.5
                out += "<rect class=\"stable\" x=\"\(SVGSupport.number(x0))\" y=\"\(SVGSupport.number(top))\" "
                out += "width=\"\(SVGSupport.number(x1 - x0))\" height=\"\(SVGSupport.number(bottom - top))\" "
                out += "fill=\"\(colour(index))\" fill-opacity=\"0.22\"/>\n"
            }
        }
        out += "</g>\n<g id=\"heaviest\" fill=\"none\" stroke=\"\(SVGSupport.heaviest)\" stroke-width=\"8\" "
        out += "stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-opacity=\"0.7\">\n"
        for line in series {
            for run in runs(line.buckets, where: \.heaviest) {
                out += "<polyline class=\"heaviest\" points=\"" + points(line, run, layout, axis) + "\"/>\n"
            }
        }
        out += "</g>\n<g id=\"series\" fill=\"none\" stroke-width=\"1.6\" stroke-linejoin=\"round\">\n"
        for (index, line) in series.enumerated() {
            out += "<polyline class=\"series\" id=\"series-\(index)\" stroke=\"\(colour(index))\" points=\""
            out += points(line, 0..<line.buckets.count, layout, axis) + "\"><title>#\(line.id)</title></polyline>\n"
        }
        out += "</g>\n<g id=\"saturated\" fill=\"none\" stroke=\"\(SVGSupport.saturated)\" stroke-width=\"4\" "
        out += "stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        for line in series {
            for run in runs(line.buckets, where: \.saturated) {
                var path = points(line, run, layout, axis)
                // One point is drawn as a dot: a zero-length segment with round caps.
                if !path.contains(" ") { path += " " + path }
                out += "<polyline class=\"saturated\" points=\"" + path + "\"/>\n"
            }
        }
        out += "</g>\n<g id=\"lifts\">\n"
        for (index, line) in series.enumerated() where line.lifted {
            guard let last = line.buckets.last else { continue }
            let lx = x(bucket: line.firstBucket + line.buckets.count - 1, layout)
            let ly = y(last.minimumFirst ? last.maximum : last.minimum, layout, axis)
            out += "<circle class=\"lift\" cx=\"\(SVGSupport.number(lx))\" cy=\"\(SVGSupport.number(ly))\" r=\"3.5\" "
            out += "fill=\"#ffffff\" stroke=\"\(colour(index))\" stroke-width=\"1.6\"/>\n"
        }
        out += "</g>\n<g id=\"resyncs\" stroke=\"#d62728\" stroke-width=\"1\" stroke-dasharray=\"4 3\">\n"
        for bucket in resyncBuckets.sorted() {
            let rx = SVGSupport.number(x(bucket: bucket, layout))
            out += "<line class=\"resync\" x1=\"\(rx)\" x2=\"\(rx)\" y1=\"\(Int(layout.plotTop))\" "
            out += "y2=\"\(Int(layout.plotBottom))\"/>\n"
        }
        return out + "</g>\n</g>\n"
    }

    /// The path of `line` over the buckets `range`: each bucket's extremes in time order, horizontal runs
    /// reduced to their ends.
    private func points(_ line: Series, _ range: Range<Int>, _ layout: SVGLayout, _ axis: SVGValueAxis) -> String {
        var coordinates: [(x: String, y: String)] = []
        coordinates.reserveCapacity(range.count * 2)
        for offset in range {
            let bucket = line.buckets[offset]
            let px = SVGSupport.number(x(bucket: line.firstBucket + offset, layout))
            let values =
                bucket.minimum == bucket.maximum
                ? [bucket.minimum]
                : bucket.minimumFirst ? [bucket.minimum, bucket.maximum] : [bucket.maximum, bucket.minimum]
            for value in values {
                let point = (x: px, y: SVGSupport.number(y(value, layout, axis)))
                let count = coordinates.count
                if count >= 2, coordinates[count - 1].y == point.y, coordinates[count - 2].y == point.y {
                    coordinates[count - 1] = point
                } else {
                    coordinates.append(point)
                }
            }
        }
        return coordinates.map { $0.x + "," + $0.y }.joined(separator: " ")
    }

    /// The ranges of consecutive buckets where `flag` holds.
    private func runs(_ buckets: [Bucket], where flag: KeyPath<Bucket, Bool>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        for (index, bucket) in buckets.enumerated() {
            if bucket[keyPath: flag] {
                if start == nil { start = index }
            } else if let first = start {
                result.append(first..<index)
                start = nil
            }
        }
        if let start { result.append(start..<buckets.count) }
        return result
    }
}
