public import PlumometerCore

/// The axes a device's contact positions come from, and millimetres where the device declares a resolution: what
/// the `position` of the JSON `device` record and the `x_mm`/`y_mm` fields of frames are made from.
///
/// The decoder reads positions from `ABS_MT_POSITION_X`/`_Y` on multitouch devices and from `ABS_X`/`ABS_Y` on
/// single-touch ones, so the same axes are used here. Millimetres count from the axis minimum (the top left corner
/// of a touchpad), as the live view's `x 42 y 17 mm` does, and are not clamped: a value the device reports outside
/// its declared range is outside `0...width` here too.
public struct PositionAxes: Sendable, Equatable {
    /// The horizontal axis and its range.
    public var xAxis: AbsoluteAxis
    public var x: AxisInfo
    /// The vertical axis and its range.
    public var yAxis: AbsoluteAxis
    public var y: AxisInfo

    /// The position axes of `description`, or nil when it has neither.
    public init?(_ description: DeviceDescription) {
        let multitouch = description.contactProtocol != .singleTouch
        let xAxis: AbsoluteAxis = multitouch ? .mtPositionX : .x
        let yAxis: AbsoluteAxis = multitouch ? .mtPositionY : .y
        guard let x = description.axes[xAxis], let y = description.axes[yAxis] else { return nil }
        self.xAxis = xAxis
        self.x = x
        self.yAxis = yAxis
        self.y = y
    }

    /// `value` of the horizontal axis in millimetres from its minimum, nil without a resolution or a range.
    public func millimetresX(_ value: Int32?) -> Double? { Self.millimetres(value, x) }
    /// `value` of the vertical axis in millimetres from its minimum, nil without a resolution or a range.
    public func millimetresY(_ value: Int32?) -> Double? { Self.millimetres(value, y) }

    /// Nil also for an inverted or empty range (maximum not above minimum): the kernel refuses one from uinput
    /// (`uinput_validate_absinfo`), and only a damaged recording declares it; its millimetres would be negative
    /// (`"x_mm":-90.78`), a width that means nothing.
    private static func millimetres(_ value: Int32?, _ axis: AxisInfo) -> Double? {
        guard let value, axis.resolution > 0, axis.maximum > axis.minimum else { return nil }
        return (Double(value) - Double(axis.minimum)) / Double(axis.resolution)
    }

    /// `{"x":{"axis":"ABS_MT_POSITION_X","min":..,"max":..,"resolution":..},"y":{...}}`, for the device record.
    public var json: String {
        func axis(_ name: AbsoluteAxis, _ info: AxisInfo) -> String {
            "{\"axis\":" + JSONText.string(name.name) + ",\"min\":\(info.minimum),\"max\":\(info.maximum)"
                + ",\"resolution\":\(info.resolution)}"
        }
        return "{\"x\":" + axis(xAxis, x) + ",\"y\":" + axis(yAxis, y) + "}"
    }
}
