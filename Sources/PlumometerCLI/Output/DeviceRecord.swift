import PlumometerCore

/// What the outputs say about a device when reading from it starts.
struct DeviceRecord: Sendable {
    /// `/dev/input/eventN` or the recording's file name.
    var path: String
    var description: DeviceDescription
    /// The kernel time at which reading started (the first event's time for recordings).
    var time: EventTime
    var classification: DeviceClassification
    /// Where grams come from, if anywhere.
    var gramsSource: GramsSource

    enum GramsSource: Sendable, Equatable {
        case none
        case resolution(Int32)
        case calibration(String)
    }
}
