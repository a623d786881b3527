import Foundation
import PlumometerTestSupport
import Testing

@testable import PlumometerCLI

/// `plumometer help --man`: a man(7) page that groff formats without a warning, that `man -l` renders, and that
/// lists every command and option of the tables behind `--help`.
@Suite(.enabled(if: Tool.path("man") != nil || Requirements.all, "needs man-db and groff-base"))
struct ManualPageTests {
    /// The page as the built binary writes it, saved to a scratch file.
    static func page() throws -> (source: String, file: URL) {
        let result = try CLI.run(["help", "--man"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let file = try CLI.temporaryDirectory().appendingPathComponent("plumometer.1")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        return (result.stdout, file)
    }

    @Test func groffFormatsItWithoutAWarning() throws {
        let (_, file) = try Self.page()
        let groff = try #require(Tool.path("groff"), "groff is not installed")
        let result = try ProcessRunner.run(groff, ["-ww", "-man", "-Tutf8", "-z", file.path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func manRendersEveryCommandAndOption() throws {
        let (source, file) = try Self.page()
        let man = try #require(Tool.path("man"), "man-db is not installed")
        let result = try ProcessRunner.run(man, ["-l", file.path], environment: ["MANWIDTH": "80", "MANPAGER": "cat"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let text = result.stdout
        #expect(text.hasPrefix("PLUMOMETER(1)"))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "EXAMPLES", "FILES"] {
            #expect(text.contains("\n\(section)\n"), "no \(section) section")
        }
        #expect(text.contains("SEE ALSO"))
        for spec in CommandRegistry.specs {
            #expect(text.contains("   plumometer \(spec.name)\n"), "no options heading for \(spec.name)")
            #expect(source.contains(".SY \"plumometer \(spec.name)\""), "no synopsis of \(spec.name)")
            for option in spec.options {
                #expect(text.contains("--\(option.name)"), "\(spec.name) --\(option.name) is not in the page")
                // Written as minus signs, so that the option can be searched for and copied.
                #expect(source.contains("\\-\\-" + option.name.replacing("-", with: "\\-")))
            }
        }
        for status in ["0", "1", "2"] { #expect(text.contains("       \(status)      ")) }
        // The page is made from the same tables as help: each summary is there, word for word.
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacing("\u{2010}", with: "-")
        for spec in CommandRegistry.specs {
            #expect(flat.contains(spec.summary), "\(spec.name): \(spec.summary)")
        }
    }

    @Test func manIsOnlyForTheWholePage() throws {
        let result = try CLI.run(["help", "--man", "replay"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("The manual page covers every command"))
    }
}

/// Where a program the tests need is installed, if it is.
enum Tool {
    static func path(_ name: String) -> String? {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
