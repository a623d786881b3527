public import PlumometerCore
import PlumometerOutput

/// The shape of a device's surface: which axes carry positions, how wide and tall the surface is, and whether
/// that is in millimetres (both position axes declare a resolution) or only in device units.
public struct PadGeometry: Hashable, Sendable {
    /// The horizontal position axis' range (`ABS_MT_POSITION_X`, else `ABS_X`).
    public var x: AxisInfo
    /// The vertical position axis' range (`ABS_MT_POSITION_Y`, else `ABS_Y`).
    public var y: AxisInfo
    /// Whether both axes declare a resolution, so ``width`` and ``height`` are millimetres.
    public var inMillimetres: Bool { x.resolution > 0 && y.resolution > 0 }

    /// The geometry of `device`, or nil when it declares no usable position ranges (then there is no map).
    public init?(device: DeviceDescription) {
        let xAxis = device.axes[.mtPositionX] ?? device.axes[.x]
        let yAxis = device.axes[.mtPositionY] ?? device.axes[.y]
        guard let xAxis, let yAxis, xAxis.span > 0, yAxis.span > 0 else { return nil }
        self.init(x: xAxis, y: yAxis)
    }

    /// A geometry from two position ranges, each with a positive span.
    public init(x: AxisInfo, y: AxisInfo) {
        self.x = x
        self.y = y
    }

    /// The surface's width: millimetres when ``inMillimetres``, else device units.
    public var width: Double { inMillimetres ? x.span / Double(x.resolution) : x.span }
    /// The surface's height: millimetres when ``inMillimetres``, else device units.
    public var height: Double { inMillimetres ? y.span / Double(y.resolution) : y.span }

    /// Where `x` lies across the surface, 0 at the left edge to 1 at the right (clamped).
    public func fractionX(_ value: Int32) -> Double { Self.fraction(value, of: x) }
    /// Where `y` lies down the surface, 0 at the top edge to 1 at the bottom (clamped).
    public func fractionY(_ value: Int32) -> Double { Self.fraction(value, of: y) }

    /// A contact's position for the bars view: `x 42 y 17 mm` from the surface's left and top edges when the
    /// resolution is known, else `left`, `centre` or `right` (thirds of the width); nil without a position.
    public func positionText(x: Int32?, y: Int32?) -> String? {
        guard let x else { return nil }
        let across = fractionX(x)
        guard inMillimetres, let y else { return across < 1.0 / 3 ? "left" : across <= 2.0 / 3 ? "centre" : "right" }
        let millimetresX = across * width
        let millimetresY = fractionY(y) * height
        return "x " + NumberText.fixed(millimetresX, 0) + " y " + NumberText.fixed(millimetresY, 0) + " mm"
    }

    private static func fraction(_ value: Int32, of axis: AxisInfo) -> Double {
        guard axis.span > 0 else { return 0.5 }
        return Swift.min(1, Swift.max(0, (Double(value) - Double(axis.minimum)) / axis.span))
    }
}
