public import PlumometerCore

/// A recording as a picture: force (or grams) over time, one line per contact, and where each contact sat on the
/// surface; built from readings fed one at a time, rendered once as a self-contained SVG.
///
/// Memory and output are bounded whatever the recording's length: time is cut into ``columns`` buckets (one per
/// pixel column of the plot) and each contact keeps, per bucket, the smallest and largest value and whether it
/// was stable and heaviest there: a min/max envelope, so a spike is never lost to decimation. The recording's
/// length is not known in advance (a stream may be piped in), so the buckets start 1 ms wide and, when time runs
/// past the last one, pairs merge and the width doubles: at the end between half and all of the columns are in
/// use. Tracks on the surface keep at most 128 points per contact the same way (the spacing doubles when full),
/// and at most ``maximumSeries`` contacts are drawn (the rest are counted in the legend).
public struct SVGPlot: Sendable {
    /// One bucket of one contact: the value's envelope and what held in it.
    struct Bucket: Sendable {
        var minimum: Float
        var maximum: Float
        /// Whether the minimum came before the maximum (the path visits them in time order).
        var minimumFirst: Bool
        var stable: Bool
        var heaviest: Bool
        /// Whether the sensor was saturated in it (the weight was at least the value drawn).
        var saturated = false

        /// The envelope of this bucket and the one after it.
        func merged(with later: Bucket) -> Bucket {
            // Where each extreme came from decides their order: the earlier bucket's come first.
            let minimumEarlier = minimum <= later.minimum
            let maximumEarlier = maximum >= later.maximum
            let minimumFirst: Bool
            switch (minimumEarlier, maximumEarlier) {
            case (true, true): minimumFirst = self.minimumFirst
            case (false, false): minimumFirst = later.minimumFirst
            case (true, false): minimumFirst = true
            case (false, true): minimumFirst = false
            }
            return Bucket(
                minimum: Swift.min(minimum, later.minimum),
                maximum: Swift.max(maximum, later.maximum),
                minimumFirst: minimumFirst,
                stable: stable || later.stable,
                heaviest: heaviest || later.heaviest,
                saturated: saturated || later.saturated
            )
        }
    }

    /// One contact's line and track.
    struct Series: Sendable {
        var id: Int
        var firstBucket: Int
        var buckets: [Bucket] = []
        var lifted = false
        var track: [(x: Float, y: Float)] = []
        var trackSpacing: Float = 0.002
        var lastForce = 0.0
        var lastPosition: (x: Float, y: Float)?
        var lastRawPosition: (x: Int32, y: Int32)?
        var lastHeaviest = false
        /// The value at the contact's last stable reading, nil when it never settled.
        var settledValue: Double?
        var settledForce: Double?
        var lastValue = 0.0
        /// The largest value it reached, and the force then: what it was when it never settled.
        var peakValue = -Double.infinity
        var peakForce = 0.0
        /// Whether the sensor saturated while it was down.
        var saturated = false
    }

    /// The number of pixel columns of the time plot, and so of buckets.
    public let columns: Int
    /// The most contacts drawn; later ones are counted, not drawn.
    public static let maximumSeries = 200
    static let maximumTrack = 128

    let geometry: PadGeometry?
    private(set) var origin: EventTime?
    private(set) var latest: EventTime?
    private(set) var bucketMicroseconds: Int64 = 1000
    private(set) var series: [Series] = []
    private var seriesIndex: [Int: Int] = [:]
    private var downBefore: [Int] = []
    /// Buckets that saw a resync frame.
    private(set) var resyncBuckets: Set<Int> = []
    /// Whether values are grams (decided by the first contact seen: a recording's calibration does not change).
    private(set) var grams: Bool?
    private(set) var frames = 0
    private(set) var undrawn = 0
    /// The session's summary, shown beside the surface.
    private(set) var summarizer = SessionSummarizer()

    /// A plot of readings from `device` (its position ranges draw the surface panel), `columns` pixels wide.
    public init(device: DeviceDescription?, columns: Int = 1000) {
        self.geometry = device.flatMap(PadGeometry.init(device:))
        self.columns = Swift.max(10, columns)
    }

    /// Takes in one reading; readings must come in time order (an earlier one counts as at the latest time).
    public mutating func add(_ reading: Reading) {
        let time = latest.map { Swift.max($0, reading.time) } ?? reading.time
        if origin == nil { origin = time }
        latest = time
        frames += 1
        summarizer.consume(reading)
        var bucket = Int((time.microseconds - origin!.microseconds) / bucketMicroseconds)
        while bucket >= columns {
            halve()
            bucket = Int((time.microseconds - origin!.microseconds) / bucketMicroseconds)
        }
        if reading.resync { resyncBuckets.insert(bucket) }
        // The common case, the same contacts as last time in the same order: no lookups, nothing lifted.
        let unchanged =
            downBefore.count == reading.contacts.count
            && zip(downBefore, reading.contacts).allSatisfy { series[$0.0].id == $0.1.id }
        var down: [Int] = []
        if !unchanged { down.reserveCapacity(reading.contacts.count) }
        for (position, contact) in reading.contacts.enumerated() {
            if grams == nil { grams = contact.grams != nil }
            let value: Double
            if grams == true {
                guard let known = contact.grams else { continue }
                value = known
            } else {
                value = contact.percent
            }
            let index: Int
            if unchanged {
                index = downBefore[position]
            } else {
                var known = seriesIndex[contact.id]
                // An id that comes back after it lifted is a new contact.
                if let index = known, index >= 0, series[index].lifted { known = nil }
                guard let found = known ?? newSeries(id: contact.id, bucket: bucket), found >= 0 else { continue }
                index = found
                down.append(index)
            }
            Self.update(&series[index], bucket: bucket, exact: value, contact: contact, geometry: geometry)
        }
        guard !unchanged else { return }
        for index in downBefore where !down.contains(index) { series[index].lifted = true }
        downBefore = down
    }

    private mutating func newSeries(id: Int, bucket: Int) -> Int? {
        guard series.count < Self.maximumSeries else {
            seriesIndex[id] = -1
            undrawn += 1
            return nil
        }
        series.append(Series(id: id, firstBucket: bucket))
        seriesIndex[id] = series.count - 1
        return series.count - 1
    }

    // Static, so `series[index]` is changed in place: a method on `self` would hold a copy of the array and make
    // every write copy its buckets.
    private static func update(
        _ line: inout Series,
        bucket: Int,
        exact: Double,
        contact: ContactReading,
        geometry: PadGeometry?
    ) {
        // The buckets keep Float (bounded memory for the drawing); the legend's numbers keep the exact value, so
        // they read as the summary and the text lines do.
        let value = Float(exact)
        let offset = bucket - line.firstBucket
        let fresh = Bucket(
            minimum: value,
            maximum: value,
            minimumFirst: true,
            stable: contact.stable,
            heaviest: contact.heaviest,
            saturated: contact.saturated
        )
        if offset < line.buckets.count {
            var current = line.buckets[offset]
            if value < current.minimum {
                current.minimum = value
                current.minimumFirst = false
            }
            if value > current.maximum {
                current.maximum = value
                current.minimumFirst = true
            }
            current.stable = current.stable || contact.stable
            current.heaviest = current.heaviest || contact.heaviest
            current.saturated = current.saturated || contact.saturated
            line.buckets[offset] = current
        } else {
            // A bucket the contact skipped (no reading fell in it) repeats the last value: it was still down.
            while line.buckets.count < offset, let last = line.buckets.last {
                let held = last.minimumFirst ? last.maximum : last.minimum
                line.buckets.append(
                    Bucket(
                        minimum: held,
                        maximum: held,
                        minimumFirst: true,
                        stable: last.stable,
                        heaviest: last.heaviest,
                        saturated: last.saturated
                    )
                )
            }
            line.buckets.append(fresh)
        }
        line.lastForce = contact.force
        line.lastHeaviest = contact.heaviest
        line.lastValue = exact
        if exact > line.peakValue {
            line.peakValue = exact
            line.peakForce = contact.force
        }
        if contact.saturated { line.saturated = true }
        if contact.stable {
            line.settledForce = contact.force
            line.settledValue = exact
        }
        if let geometry, let x = contact.x, let y = contact.y, line.lastRawPosition.map({ $0 != (x, y) }) ?? true {
            line.lastRawPosition = (x, y)
            addTrackPoint(&line, x: Float(geometry.fractionX(x)), y: Float(geometry.fractionY(y)))
        }
    }

    private static func addTrackPoint(_ line: inout Series, x: Float, y: Float) {
        line.lastPosition = (x, y)
        if let last = line.track.last, Swift.abs(last.x - x) < line.trackSpacing,
            Swift.abs(last.y - y) < line.trackSpacing
        {
            return
        }
        line.track.append((x, y))
        if line.track.count > Self.maximumTrack {
            // Keep every other point, and ask twice the spacing from now on.
            line.track = line.track.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            line.trackSpacing *= 2
        }
    }

    /// Doubles the bucket width: neighbouring buckets merge, so every series and the resync marks keep their place.
    private mutating func halve() {
        bucketMicroseconds *= 2
        for index in series.indices {
            var line = series[index]
            var merged: [Bucket] = []
            merged.reserveCapacity(line.buckets.count / 2 + 1)
            for (offset, bucket) in line.buckets.enumerated() {
                let target = (line.firstBucket + offset) / 2 - line.firstBucket / 2
                if target < merged.count {
                    merged[target] = merged[target].merged(with: bucket)
                } else {
                    merged.append(bucket)
                }
            }
            line.firstBucket /= 2
            line.buckets = merged
            series[index] = line
        }
        resyncBuckets = Set(resyncBuckets.map { $0 / 2 })
    }
}
