public import PlumometerCore
public import PlumometerOutput
import PlumometerPictures

/// The readings of a plot: each one in the time window added to an ``SVGPlot``, the SVG made once at the end.
///
/// The plot is made for the device its `device` record announces; the window (`--from`, `--to`) counts from that
/// record's time, where reading the recording starts.
public final class PlotOutput: ReadingOutput {
    private var plot: SVGPlot?
    private var device: DeviceDescription?
    private let file: String
    /// Microseconds after the start: the first and (nil: none) the last reading plotted.
    private let offsets: (from: Int64, to: Int64?)
    private var window: (from: Int64, to: Int64?) = (0, nil)
    private let unit: WeightUnit
    /// Where the values come from, said under the title.
    private var source: String?
    /// The readings plotted.
    public private(set) var count = 0

    /// A plot of the recording `file` (its name in the title) from `from` to `to` seconds after its start.
    public init(file: String, from: Double, to: Double?, unit: WeightUnit) {
        self.file = file
        offsets = (clampedMicroseconds(from * 1e6), to.map { clampedMicroseconds($0 * 1e6) })
        self.unit = unit
    }

    /// Whether a device was announced: there is something to render.
    public var hasDevice: Bool { plot != nil }

    public func device(_ record: DeviceRecord) throws {
        plot = SVGPlot(device: record.description)
        device = record.description
        let start = record.time.microseconds
        window = (start + offsets.from, offsets.to.map { start + $0 })
        source = Self.source(record)
    }

    /// Where a plot's values come from, in words: the calibration profile (named, with its date), the axis
    /// resolution, or percent of full scale when neither gives grams.
    public static func source(_ record: DeviceRecord) -> String {
        switch record.gramsSource {
        case .calibration: "grams from " + (record.profileText ?? "a calibration profile")
        case .resolution(let resolution):
            "grams from the device's own units (its pressure axis's resolution: \(resolution) per gram)"
        case .none:
            "percent of full scale (" + record.classification.sensing.rawValue
                + "): no grams, the axis declares no resolution and no calibration profile was used"
        }
    }

    public func frame(_ reading: Reading, sequence: Int) throws {
        let time = reading.time.microseconds
        guard time >= window.from, window.to.map({ time <= $0 }) ?? true else { return }
        count += 1
        plot?.add(reading)
    }

    public func removed(path: String, time: EventTime) throws {}
    public func status(_ message: String) { Diagnostics.note(message) }
    public func idle(now: EventTime) throws {}
    public func idleDeadline(now: EventTime) -> Int64? { nil }
    public func finish() throws {}

    /// The SVG document.
    public func render(date: String) -> String {
        plot?.render(
            title: "plumometer plot",
            device: device?.name ?? "",
            file: file,
            date: date,
            unit: unit,
            source: source
        ) ?? ""
    }
}
