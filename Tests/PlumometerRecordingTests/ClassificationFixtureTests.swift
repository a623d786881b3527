import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// The classifier's findings on real descriptions: the project's device fixtures and the public recordings.
@Suite("Classification of fixture descriptions")
struct ClassificationFixtureTests {
    static func classify(_ name: String) throws -> DeviceClassification {
        let url = Fixtures.projectFixtures.appendingPathComponent("Devices").appendingPathComponent(name)
        let description = try RecordingReader.readDescription(text: try Paths.text(url), fileName: name)
        return DeviceClassifier.classify(description)
    }

    static func classifyShared(_ relative: String) throws -> DeviceClassification {
        let url = try #require(Paths.sharedFixtures).appendingPathComponent(relative)
        let recording = try RecordingReader.read(text: try Paths.text(url), fileName: url.lastPathComponent)
        return DeviceClassifier.classify(recording.devices[0].description)
    }

    @Test func projectDescriptionsKeepTheirVerdictsAndGainFindings() throws {
        let pen = try Self.classify("pen-tablet.desc")
        #expect(pen.sensing == .force)
        #expect(pen.findingCodes == [.pressureAxis, .pen])
        let keyboard = try Self.classify("keyboard.desc")
        #expect(keyboard.sensing == .none)
        #expect(keyboard.findingCodes == [.noPressureAxis])
        let pad = try Self.classify("pressure-pad.desc")
        // It declares a resolution too: both findings are listed, the first rule decides.
        #expect(pad.sensing == .forceWithUnits)
        #expect(pad.findingCodes.suffix(2) == [.pressureResolution, .pressurePad])
        let screen = try Self.classify("touchscreen-contact-size.desc")
        #expect(screen.sensing == .contactSize)
        #expect(screen.findingCodes.last == .presumedContactSize)
        for name in ["apple-magic-trackpad-2-usb.desc", "apple-silicon-internal-trackpad.desc"] {
            #expect(try Self.classify(name).findings.allSatisfy { $0.code != .copiedRange }, "\(name)")
        }
    }

    @Test(.enabled(if: Paths.sharedFixtures != nil, "../shared/fixtures is absent"))
    func theCypressPadIsSemiMultitouch() throws {
        let result = try Self.classifyShared("cypress-trackpad-semimt/CyPS2 Cypress Trackpad.two_finger_tap.events")
        #expect(result.semiMultitouch)
        #expect(result.sensing == .contactSize)
        #expect(result.findingCodes.first == .semiMultitouch)
    }

    @Test(.enabled(if: Paths.sharedFixtures != nil, "../shared/fixtures is absent"))
    func theDellCanvasPenIsAPen() throws {
        let result = try Self.classifyShared("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu")
        #expect(result.sensing == .force)
        #expect(result.findingCodes == [.pressureAxis, .pen])
    }

    @Test(.enabled(if: Paths.sharedFixtures != nil, "../shared/fixtures is absent"))
    func noPublicRecordingIsBogus() throws {
        // The public devices are real and work: none may trip the empty, inverted or copied range rules.
        let root = try #require(Paths.sharedFixtures)
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".evemu") || ($0.hasSuffix(".events") && !$0.contains("SynPS2")) }
            .filter { !$0.hasPrefix("nexus4") }
        #expect(files.count >= 6)
        for file in files {
            #expect(try Self.classifyShared(file).sensing != .bogus, "\(file)")
        }
    }
}
