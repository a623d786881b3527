import PlumometerCore
import PlumometerOutput

extension SVGPlot {
    /// What a contact was, as the legend and the surface panel label it: its name, then its settled value (its
    /// last stable one) said as such, or its peak when it never settled, said as such; `, saturated` when the
    /// sensor saturated while it was down (the weight was then at least what is drawn). `#11 settled 72.0 g`,
    /// `#0 peak 99.3%, never settled, saturated`.
    func label(of line: Series, unit: WeightUnit) -> String {
        var text = "#\(line.id) "
        if let settled = line.settledValue {
            text += "settled " + valueText(settled, unit: unit)
        } else {
            text += "peak " + valueText(line.peakValue, unit: unit) + ", never settled"
        }
        return text + (line.saturated ? ", saturated" : "")
    }

    /// The legend under the time plot: a swatch and what each contact was (``label(of:unit:)``), as many as fit on
    /// the row (at most 10, the rest counted), then what the marks mean.
    func legend(_ layout: SVGLayout, axis: SVGValueAxis, unit: WeightUnit) -> String {
        var out = "<g id=\"legend\">\n"
        var cursor = layout.left
        var shown = 0
        for (index, line) in series.prefix(10).enumerated() {
            let label = label(of: line, unit: unit)
            // Room for this entry and for the count of the ones left out after it.
            let room = index + 1 < series.count ? 80.0 : 0
            guard cursor + 28 + Double(label.count) * 7.2 + room <= layout.left + layout.plotWidth else { break }
            shown += 1
            let ly = layout.legendTop
            out += "<line x1=\"\(SVGSupport.number(cursor))\" x2=\"\(SVGSupport.number(cursor + 22))\" "
            out += "y1=\"\(SVGSupport.number(ly - 4))\" y2=\"\(SVGSupport.number(ly - 4))\" "
            out += "stroke=\"\(colour(index))\" stroke-width=\"3\"/>\n"
            out += text(cursor + 28, ly, label, attributes: "class=\"legend-contact\"")
            cursor += 44 + Double(label.count) * 7.2
        }
        if series.count > shown { out += text(cursor, layout.legendTop, "+\(series.count - shown) more") }
        let row = layout.legendTop + 24
        cursor = layout.left
        out += "<line x1=\"\(Int(cursor))\" x2=\"\(Int(cursor + 22))\" y1=\"\(Int(row - 4))\" y2=\"\(Int(row - 4))\" "
        out +=
            "stroke=\"\(SVGSupport.heaviest)\" stroke-width=\"8\" stroke-linecap=\"round\" stroke-opacity=\"0.7\"/>\n"
        out += text(cursor + 30, row, "heaviest")
        cursor += 110
        out += "<rect x=\"\(Int(cursor))\" y=\"\(Int(row - 12))\" width=\"22\" height=\"14\" fill=\"#1f77b4\" "
        out += "fill-opacity=\"0.22\"/>\n"
        out += text(cursor + 28, row, "stable")
        cursor += 96
        out += "<circle cx=\"\(Int(cursor + 8))\" cy=\"\(Int(row - 4))\" r=\"3.5\" fill=\"#ffffff\" stroke=\"#555\" "
        out += "stroke-width=\"1.6\"/>\n"
        out += text(cursor + 20, row, "lifted")
        cursor += 86
        if series.contains(where: \.saturated) {
            out +=
                "<line x1=\"\(Int(cursor))\" x2=\"\(Int(cursor + 22))\" y1=\"\(Int(row - 4))\" y2=\"\(Int(row - 4))\" "
            out += "stroke=\"\(SVGSupport.saturated)\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n"
            out += text(cursor + 30, row, "saturated (at least this)")
            cursor += 200
        }
        if !resyncBuckets.isEmpty {
            out +=
                "<line x1=\"\(Int(cursor + 8))\" x2=\"\(Int(cursor + 8))\" y1=\"\(Int(row - 12))\" y2=\"\(Int(row + 2))\" "
            out += "stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>\n"
            out += text(cursor + 18, row, "resync (events lost)")
            cursor += 170
        }
        var note = "\(frames) readings"
        if undrawn > 0 { note += ", \(undrawn) more contacts not drawn" }
        out += text(layout.left + layout.plotWidth, row, note, attributes: "text-anchor=\"end\" fill=\"#777\"")
        return out + "</g>\n"
    }

    /// A value as the legend shows it: in `unit` when the plot is in grams, else percent.
    private func valueText(_ value: Double, unit: WeightUnit) -> String {
        grams == true ? unit.label(grams: value) : NumberText.fixed(value, 1) + "%"
    }

    /// The surface panel's size in pixels (to scale, leaving room for the summary beside it, at most 360 high), or nil
    /// when the device declares no position ranges.
    func padPixels(_ layout: SVGLayout) -> (width: Double, height: Double)? {
        guard let geometry else { return nil }
        let room = layout.plotWidth - layout.summaryWidth - 50
        let scale = Swift.min(room / geometry.width, layout.padMaximumHeight / geometry.height)
        return (geometry.width * scale, geometry.height * scale)
    }

    /// Panel 2: the surface to scale, each contact's track and its final circle, the area growing with its force,
    /// and each circle's label (``SVGLabelLayout``): beside it, else with a leader line, anywhere left of `right` and
    /// above `bottom` (the summary table's left edge and the picture's foot) that no other label or tick text holds.
    func padPanel(
        _ layout: SVGLayout,
        size: (width: Double, height: Double),
        unit: WeightUnit,
        right: Double,
        bottom: Double
    ) -> String {
        guard let geometry else { return "" }
        let left = layout.left
        let top = layout.padTop
        let units = geometry.inMillimetres ? "mm" : "device units"
        var out = "<g id=\"pad\">\n"
        let heading =
            "Where each contact sat: the surface to scale, " + NumberText.fixed(geometry.width, 0) + " \u{00D7} "
            + NumberText.fixed(geometry.height, 0) + " " + units
            + " (circle area ~ settled force, else peak; dashed: lifted)"
        out += text(left, layout.padHeadingTop, heading, attributes: "fill=\"#333\"")
        out += "<rect x=\"\(Int(left))\" y=\"\(Int(top))\" width=\"\(SVGSupport.number(size.width))\" "
        out += "height=\"\(SVGSupport.number(size.height))\" fill=\"#f4f4f2\" stroke=\"#888\" rx=\"6\"/>\n"
        // One step for both edges, so the ticks show the scale is the same across and down.
        let ticks = SVGSupport.ticks(upTo: Swift.max(geometry.width, geometry.height), count: 8)
        // The tick labels (and the frame's ticks) no contact label may cover.
        var tickBoxes: [SVGBox] = []
        var tick = 0.0
        while tick <= geometry.width + ticks.step * 1e-6 {
            let tx = SVGSupport.number(left + tick / geometry.width * size.width)
            out += "<line x1=\"\(tx)\" x2=\"\(tx)\" y1=\"\(SVGSupport.number(top + size.height))\" "
            out += "y2=\"\(SVGSupport.number(top + size.height + 5))\" stroke=\"#888\"/>\n"
            let label = SVGSupport.tickText(tick, step: ticks.step)
            let labelWidth = SVGTextWidth.bold(label)
            tickBoxes.append(
                SVGBox(
                    x: left + tick / geometry.width * size.width - labelWidth / 2,
                    y: top + size.height + 5,
                    width: labelWidth,
                    height: 17
                )
            )
            out += text(
                left + tick / geometry.width * size.width,
                top + size.height + 18,
                label,
                attributes: "class=\"padtick\" text-anchor=\"middle\" fill=\"#555\""
            )
            tick += ticks.step
        }
        out += text(left + size.width + 26, top + size.height + 18, units, attributes: "fill=\"#555\"")
        tickBoxes.append(
            SVGBox(x: left + size.width + 26, y: top + size.height + 5, width: SVGTextWidth.bold(units), height: 17)
        )
        tick = 0
        while tick <= geometry.height + ticks.step * 1e-6 {
            let ty = top + tick / geometry.height * size.height
            out += "<line x1=\"\(Int(left - 5))\" x2=\"\(Int(left))\" y1=\"\(SVGSupport.number(ty))\" "
            out += "y2=\"\(SVGSupport.number(ty))\" stroke=\"#888\"/>\n"
            let label = SVGSupport.tickText(tick, step: ticks.step)
            let labelWidth = SVGTextWidth.bold(label)
            tickBoxes.append(SVGBox(x: left - 8 - labelWidth, y: ty - 8, width: labelWidth + 8, height: 16))
            out += text(left - 8, ty + 4, label, attributes: "class=\"padtick\" text-anchor=\"end\" fill=\"#555\"")
            tick += ticks.step
        }
        // The heaviest settled contact gets the largest circle; the others' areas are in proportion to it.
        let largest = 0.12 * Swift.min(size.width, size.height)
        let heaviestForce = series.map { $0.settledForce ?? $0.peakForce }.max() ?? 0
        var circles: [(series: Int, circle: SVGLabelLayout.Circle)] = []
        for (index, line) in series.enumerated() {
            let place = { (point: (x: Float, y: Float)) in
                (left + Double(point.x) * size.width, top + Double(point.y) * size.height)
            }
            if line.track.count >= 2 {
                let path = (line.track + (line.lastPosition.map { [$0] } ?? [])).map(place)
                let joined = path.map { SVGSupport.number($0.0) + "," + SVGSupport.number($0.1) }
                out += "<polyline class=\"track\" fill=\"none\" stroke=\"\(colour(index))\" stroke-width=\"1.4\" "
                out += "stroke-opacity=\"0.8\" points=\"" + joined.joined(separator: " ") + "\"/>\n"
            }
            guard let last = line.lastPosition else { continue }
            let (cx, cy) = place(last)
            let force = heaviestForce > 0 ? Swift.max(0, (line.settledForce ?? line.peakForce) / heaviestForce) : 0
            let radius = Swift.max(3, largest * force.squareRoot())
            let heaviest = line.lastHeaviest && !line.lifted
            out += "<circle class=\"final\" cx=\"\(SVGSupport.number(cx))\" cy=\"\(SVGSupport.number(cy))\" "
            out += "r=\"\(SVGSupport.number(radius))\" fill=\"\(heaviest ? SVGSupport.heaviest : colour(index))\" "
            // A contact that lifted before the end keeps a dashed outline: where it was, not where it is.
            out += "fill-opacity=\"\(heaviest ? "0.85" : "0.3")\" stroke=\"\(colour(index))\" stroke-width=\"2\""
            out += line.lifted ? " stroke-dasharray=\"5 3\"/>\n" : "/>\n"
            circles.append((index, SVGLabelLayout.Circle(x: cx, y: cy, radius: radius)))
        }
        out += padLabels(
            circles,
            bounds: SVGBox(x: 4, y: top, width: right - 4, height: bottom - top),
            obstacles: tickBoxes,
            unit: unit
        )
        return out + "</g>\n"
    }

    /// The labels of the surface's circles, over everything else on it: each a white box (so tracks and circles
    /// under it do not blur it) with the contact's label (``label(of:unit:)``) in its colour, placed by
    /// ``SVGLabelLayout``, the heaviest contacts first; a label that finds no place is shortened to the contact's
    /// name (the legend and the table carry the rest), and one that still finds none is left out and counted.
    private func padLabels(
        _ circles: [(series: Int, circle: SVGLabelLayout.Circle)],
        bounds: SVGBox,
        obstacles: [SVGBox],
        unit: WeightUnit
    ) -> String {
        var layout = SVGLabelLayout(bounds: bounds, obstacles: obstacles, circles: circles.map(\.circle))
        var out = "<g id=\"pad-labels\">\n"
        let order = circles.indices.sorted {
            let first = series[circles[$0].series]
            let second = series[circles[$1].series]
            return ((first.settledForce ?? first.peakForce), -$0) > ((second.settledForce ?? second.peakForce), -$1)
        }
        var omitted = 0
        for position in order {
            let index = circles[position].series
            let line = series[index]
            var placement: SVGLabelLayout.Placement?
            var shown = ""
            for candidate in [label(of: line, unit: unit), "#\(line.id)"] {
                shown = candidate
                let box = SVGLabelLayout.textBox(candidate)
                placement = layout.place(width: box.width, height: box.height, circle: position)
                if placement != nil { break }
            }
            guard let placement else {
                omitted += 1
                continue
            }
            let colour = colour(index)
            if let leader = placement.leader {
                out += "<line class=\"leader\" x1=\"\(SVGSupport.number(leader.x1))\" "
                out += "y1=\"\(SVGSupport.number(leader.y1))\" x2=\"\(SVGSupport.number(leader.x2))\" "
                out += "y2=\"\(SVGSupport.number(leader.y2))\" stroke=\"\(colour)\" stroke-width=\"1\"/>\n"
            }
            let box = placement.box
            out += "<rect class=\"padlabel-box\" x=\"\(SVGSupport.number(box.x))\" y=\"\(SVGSupport.number(box.y))\" "
            out += "width=\"\(SVGSupport.number(box.width))\" height=\"\(SVGSupport.number(box.height))\" "
            out += "fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"\(colour)\" stroke-opacity=\"0.35\" rx=\"3\"/>\n"
            out += text(
                box.x + SVGLabelLayout.padding,
                box.y + SVGLabelLayout.baseline,
                shown,
                attributes: "class=\"padlabel\" fill=\"\(colour)\" font-weight=\"bold\""
            )
        }
        if omitted > 0 {
            out += text(
                bounds.x + 4,
                bounds.bottom - 4,
                "\(omitted) labels left out: see the table",
                attributes: "fill=\"#777\""
            )
        }
        return out + "</g>\n"
    }

    /// The session summary as a table beside the surface: when each contact was placed and lifted, what it settled
    /// at (mean and standard deviation over its stable windows) and how long it held the heaviest mark.
    func summaryTable(left: Double, top: Double, unit: WeightUnit) -> String {
        let summary = summarizer.summary()
        let origin = summary.start ?? .zero
        let columns: [(title: String, x: Double, anchor: String)] = [
            ("contact", 0, "start"), ("placed", 120, "end"), ("lifted", 185, "end"), ("settled", 305, "end"),
            ("heaviest", 375, "end"),
        ]
        var out = "<g id=\"summary\">\n"
        for column in columns {
            let anchor = "text-anchor=\"\(column.anchor)\" font-weight=\"bold\" fill=\"#333\""
            out += text(left + column.x, top + 12, column.title, attributes: anchor)
        }
        let rowHeight = SVGLayout.summaryRowHeight
        let room = SVGLayout.summaryRows
        for (row, contact) in summary.contacts.prefix(room).enumerated() {
            let y = top + 34 + Double(row) * rowHeight
            let seconds = { (time: EventTime) in NumberText.fixed(time.seconds(since: origin), 2) + " s" }
            let index = series.firstIndex { $0.id == contact.id } ?? -1
            // The text table's cell: never stable, its peak, said as such, rather than a dash.
            let settled =
                contact.settled.map { SummaryTable.settledText($0, unit: unit, ascii: false) }
                ?? SummaryTable.peakText(contact.peak, unit: unit)
            let cells = [
                "#\(contact.id)", seconds(contact.placed), contact.lifted.map(seconds) ?? "\u{2013}", settled,
                NumberText.fixed(contact.heaviestSeconds, 1) + " s",
            ]
            for (column, cell) in zip(columns, cells) {
                var attributes = "class=\"summary-cell\" text-anchor=\"\(column.anchor)\""
                if column.x == 0, index >= 0 { attributes += " fill=\"\(colour(index))\" font-weight=\"bold\"" }
                out += text(left + column.x, y, cell, attributes: attributes)
            }
        }
        var note =
            NumberText.fixed(summary.duration, 2) + " s, \(summary.frames) readings, \(summary.resyncs) resync"
            + (summary.resyncs == 1 ? "" : "s")
        if summary.contacts.count > room { note += ", \(summary.contacts.count - room) more contacts" }
        out += text(
            left,
            top + 34 + Double(Swift.min(room, summary.contacts.count)) * rowHeight + 8,
            note,
            attributes: "fill=\"#777\""
        )
        return out + "</g>\n"
    }
}
