import PlumometerCore
import Testing

@testable import PlumometerOutput

/// The live view's status line while a recording's last frame is held: it says so, offers only the keys that still
/// do something, and the frame itself is drawn as before.
@Suite struct LiveViewEndOfRecordingTests {
    static var held: LiveViewContent {
        var content = LiveViewRendererTests.twoContacts
        content.ended = true
        return content
    }

    @Test func theStatusLineSaysTheRecordingHasEndedAndQQuits() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        let lines = renderer.lines(Self.held, columns: 100, rows: 24)
        #expect(lines.last == "2 contacts  0.0 s  #3   end of recording, q to quit   bar: 100% of full scale")
        var running = LiveViewRenderer(unit: .grams, colour: false)
        let before = running.lines(LiveViewRendererTests.twoContacts, columns: 100, rows: 24)
        #expect(Array(lines.dropLast()) == Array(before.dropLast()), "the last frame itself is unchanged")
    }

    @Test func theMapKeyStaysWhereThereAreTwoViewsAndANoteGivesWay() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        var content = Self.held
        content.status = "tared"
        let lines = renderer.lines(content, columns: 100, rows: 24) { _, _ in ["(the map)"] }
        #expect(lines.last == "2 contacts  0.0 s  #3   end of recording, q to quit   [m]ap   scale: 100% of full scale")
        #expect(!lines.joined().contains("tared"))
        #expect(!lines.joined().contains("[t]are"))
    }
}
