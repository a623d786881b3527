import PlumometerCore
import Testing

@testable import PlumometerOutput

/// The live view shows a device name the way every other human-facing output does: a newline or a tab in it is
/// `\x0a`/`\x09`, so a name can neither start what looks like another line of the screen nor push the layout.
struct LiveViewNameEscapingTests {
    @Test func aNewlineInTheNameOrPathIsShownNotObeyed() {
        var description = OutputTestValues.forcePad
        description.identity.name = "Force\nPad\t2"
        let record = OutputTestValues.record(description, path: "/tmp/a\nb.evemu")
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        let lines = renderer.lines(
            LiveViewContent(record: record, reading: OutputTestValues.twoContacts, sequence: 1),
            columns: 120,
            rows: 24
        )
        #expect(lines[0].contains("Force\\x0aPad\\x092"), "\(lines[0])")
        #expect(lines[0].contains("/tmp/a\\x0ab.evemu"), "\(lines[0])")
        #expect(!lines.joined().contains("\n") && !lines.joined().contains("\t"))
    }
}
