import Foundation
import PlumometerTestSupport
import Testing

@testable import PlumometerCLI

/// scripts/install.sh and scripts/uninstall.sh staged under a temporary root (`--destdir`), and their dry runs: the
/// binary, the udev rule, the units, and the manual page and completions that the built binary writes.
@Suite("Install scripts", .serialized)
struct InstallScriptTests {
    static var scripts: URL {
        get throws { try #require(Fixtures.packageRoot, "the package root").appendingPathComponent("scripts") }
    }

    /// What install.sh puts under the prefix /opt/pm, beside the binary, udev rule and units.
    static let generated = [
        "opt/pm/share/man/man1/plumometer.1": ["help", "--man"],
        "opt/pm/share/bash-completion/completions/plumometer": ["completions", "bash"],
        "opt/pm/share/zsh/site-functions/_plumometer": ["completions", "zsh"],
        "opt/pm/share/fish/vendor_completions.d/plumometer.fish": ["completions", "fish"],
    ]

    static func script(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("/bin/sh", [try scripts.appendingPathComponent(name).path] + arguments, timeout: 60)
    }

    @Test func theDryRunChangesNothingAndNamesEveryStep() throws {
        let root = try CLI.temporaryDirectory().appendingPathComponent("stage")
        let result = try Self.script(
            "install.sh",
            ["--dry-run", "--prefix", "/opt/pm", "--destdir", root.path, "--binary", "/bin/true"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("+ install -D -m 0755 /bin/true \(root.path)/opt/pm/bin/plumometer"))
        #expect(result.stdout.contains("\(root.path)/etc/udev/rules.d/70-plumometer.rules"))
        #expect(result.stdout.contains("\(root.path)/etc/systemd/user/plumometer@.service"))
        for (path, arguments) in Self.generated {
            let step = "+ /bin/true " + arguments.joined(separator: " ") + " > \(root.path)/\(path)"
            #expect(result.stdout.contains(step), "\(step)")
        }
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(try Self.script("install.sh", ["--bogus"]).status == 2)
    }

    @Test func installThenUninstallUnderADestdir() throws {
        let root = try CLI.temporaryDirectory()
        let binary = try CLI.binary
        let install = try Self.script(
            "install.sh",
            ["--prefix", "/opt/pm", "--destdir", root.path, "--binary", binary]
        )
        #expect(install.status == 0, "\(install.stderr)")
        // Staged for a package, nothing is installed on this system: nothing to enable here.
        #expect(install.stdout.contains("staged under \(root.path)"), "\(install.stdout)")
        #expect(!install.stdout.contains("systemctl --user"), "\(install.stdout)")
        let unit = try String(
            contentsOf: root.appendingPathComponent("etc/systemd/user/plumometer.service"),
            encoding: .utf8
        )
        #expect(unit.contains("exec /opt/pm/bin/plumometer stream --wait --format jsonl"))
        let serveUnit = try String(
            contentsOf: root.appendingPathComponent("etc/systemd/user/plumometer-serve.service"),
            encoding: .utf8
        )
        #expect(serveUnit.contains("exec /opt/pm/bin/plumometer serve --wait"))
        #expect(FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("opt/pm/bin/plumometer").path))
        #expect(
            FileManager.default.fileExists(
                atPath: root.appendingPathComponent("etc/udev/rules.d/70-plumometer.rules").path
            )
        )
        // The manual page and the completions are what the binary writes, readable by everyone.
        for (path, arguments) in Self.generated {
            let installed = root.appendingPathComponent(path)
            let text = try String(contentsOf: installed, encoding: .utf8)
            #expect(try text == CLI.run(arguments).stdout, "\(path)")
            #expect(!text.isEmpty)
            let mode = try FileManager.default.attributesOfItem(atPath: installed.path)[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(path)")
        }
        let uninstall = try Self.script("uninstall.sh", ["--prefix", "/opt/pm", "--destdir", root.path])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        let everything =
            [
                "opt/pm/bin/plumometer", "etc/udev/rules.d/70-plumometer.rules",
                "etc/systemd/user/plumometer.service", "etc/systemd/user/plumometer@.service",
                "etc/systemd/user/plumometer-serve.service",
            ] + Self.generated.keys
        for path in everything {
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test func aBinaryThatWritesNothingIsRefused() throws {
        let root = try CLI.temporaryDirectory()
        let install = try Self.script(
            "install.sh",
            ["--prefix", "/opt/pm", "--destdir", root.path, "--binary", "/bin/true"]
        )
        #expect(install.status == 1)
        #expect(install.stderr.contains("'/bin/true help --man' wrote nothing"))
        let page = root.appendingPathComponent("opt/pm/share/man/man1/plumometer.1")
        #expect(!FileManager.default.fileExists(atPath: page.path))
        #expect(!FileManager.default.fileExists(atPath: page.path + ".tmp"))
    }
}
