import Foundation
import PlumometerCore
import PlumometerSession
import PlumometerTestKit
import Testing

@testable import PlumometerCLI

/// A typed error reaches the entry point whole: a command wraps it with what it was doing (``CommandFailure``),
/// never flattens it into a string, and only `CommandLineTool.run` turns it into the sentence on stderr.
@Suite struct TypedErrorTests {
    static let recording = CLI.fixture("grams-pad.one-object.evemu")
    /// Three points that no straight line explains: the fit is refused with a ``CalibrationError``.
    static let crooked = [
        "calibrate", "--replay", recording, "--point", "0:0", "--point", "1000:10", "--point", "2000:2000",
    ]

    /// Runs `body` on the test kit's runtime, with the recording in memory.
    static func inProcess<T>(_ body: () throws -> T) throws -> (T, CapturingConsole) {
        let console = CapturingConsole()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording)))
        let files = MemoryFiles([recording: bytes], environment: ["XDG_CONFIG_HOME": "/nonexistent-config"])
        let result = try Runtime.with(.embedded(console: console, files: files)) { try body() }
        return (result, console)
    }

    @Test func aRefusedFitReachesTheEntryPointAsItsCalibrationError() throws {
        let (thrown, _) = try Self.inProcess { () -> (any Error)? in
            do {
                try CalibrateCommand.run(try parse(Array(Self.crooked.dropFirst()), as: CalibrateCommand.spec))
                return nil
            } catch {
                return error
            }
        }
        let failure = try #require(thrown as? CommandFailure, "\(String(describing: thrown))")
        let cause = try #require(failure.cause as? CalibrationError)
        guard case .poorFit = cause else {
            Issue.record("\(cause)")
            return
        }
        #expect(failure.context == "calibration of 'Apple Internal Keyboard / Trackpad' refused: ")
    }

    @Test func theEntryPointSaysItInTheSameWords() throws {
        let (status, console) = try Self.inProcess { CommandLineTool.run(arguments: Self.crooked) }
        #expect(status == 1)
        #expect(
            console.errors
                == "plumometer: calibration of 'Apple Internal Keyboard / Trackpad' refused: The calibration points "
                + "do not lie on a straight line (R\u{B2} 0.754, below 0.970); point 2 is furthest off. Repeat it with "
                + "the weight resting still in the middle of the pad.\n"
        )
        #expect(console.written.isEmpty)
    }

    @Test func aFailureIsItsContextItsCauseAndItsConsequence() {
        let failure = CommandFailure(
            "calibration refused: ",
            cause: CalibrationGuideError.severalContacts(count: 2),
            " Nothing."
        )
        #expect(
            failure.description == "calibration refused: \(CalibrationGuideError.severalContacts(count: 2)) Nothing."
        )
        #expect(CommandLineTool.message(for: failure) == failure.description)
    }
}
