public import PlumometerCore

/// `--tare` and `--carrier`: the one rule for the zero taken where reading starts, used by the reading pipeline
/// (stream, replay, demo, plot) and by weigh alike.
///
/// Where reading starts: on a live device, what rests on it when it is opened (its initial frame, or nothing:
/// then a tare is zero and a carrier is refused); on a recording, its first frame. What is taken: `--tare` zeroes
/// every contact down, `--carrier` the one contact down as a carrier (docs/quantities.md, "Tare and carrier").
///
/// The error policy: a carrier that cannot be tared (nothing or several down) is a ``TareStartRefusal``, with the
/// same words for every command. A reader of readings says it on stderr and reads on without the carrier, its
/// readings still true; `weigh` ends with it (exit 1), since its answer would weigh the carrier too
/// (docs/quantities.md).
public struct TareStart: Sendable, Equatable {
    /// `--tare`: zero every contact down.
    public var tare: Bool
    /// `--carrier`: tare the one contact down as a carrier.
    public var carrier: Bool

    public init(tare: Bool = false, carrier: Bool = false) {
        self.tare = tare
        self.carrier = carrier
    }

    /// The reading options' `--tare` and `--carrier`.
    public init(_ settings: ReadingSettings) {
        self.init(tare: settings.tareAtStart, carrier: settings.carrierAtStart)
    }

    /// Whether anything is taken at all.
    public var isEmpty: Bool { !tare && !carrier }

    /// Whether it is taken on the device's first frame (a recording) rather than at open, on what rests there (a
    /// live device).
    public static func waitsForFirstFrame(_ device: OpenedDevice) -> Bool { device.kind == .recording }

    /// Takes the tare and the carrier on what the tracker holds now (the frame where reading starts, already
    /// consumed).
    /// - Parameter path: the device's node or recording, for the refusal.
    /// - Returns: the contacts zeroed (every contact down when anything was taken).
    /// - Throws: ``TareStartRefusal`` when `--carrier` finds no single contact down (the tare, if asked, is taken).
    @discardableResult
    public func take(on tracker: inout WeightTracker, path: String) throws(TareStartRefusal) -> Set<Int> {
        if tare { tracker.tare() }
        if carrier {
            do throws(TareError) {
                try tracker.tareCarrier()
            } catch {
                throw TareStartRefusal(path: path, reason: error)
            }
        }
        return isEmpty ? [] : Set(tracker.contactIDs)
    }
}

/// `--carrier` where reading starts found nothing, or several contacts, down.
public struct TareStartRefusal: Error, CustomStringConvertible, Sendable {
    /// The device's node or recording.
    public let path: String
    public let reason: TareError

    public init(path: String, reason: TareError) {
        self.path = path
        self.reason = reason
    }

    /// `--carrier on /dev/input/event5: Nothing is on the pad to tare as a carrier; ...`
    public var description: String { "--carrier on \(path): \(reason)" }
}
