import Foundation
import Glibc
import PlumometerTestSupport
import Testing

/// scripts/test as a user who is not root: the tiers that need root (kernel, package, Debian's Swift) run through
/// sudo, and it says so; without sudo it fails with the command to run as root. The package itself is built as the
/// user. Everything scripts/test starts is a stand-in that leaves a mark.
@Suite("scripts/test: the root tiers through sudo")
struct RootTiersTests {
    /// A scratch checkout with scripts/test and stand-ins for the scripts and tools it runs.
    struct Checkout {
        let root: URL
        let stubs: URL
        let marks: URL

        init(sudo: Bool) throws {
            root = try CLI.temporaryDirectory().appendingPathComponent("checkout")
            let scripts = root.appendingPathComponent("scripts")
            stubs = root.appendingPathComponent("stubs")
            marks = root.appendingPathComponent("marks")
            for directory in [scripts, stubs] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(
                at: try InstallScriptTests.scripts.appendingPathComponent("test"),
                to: scripts.appendingPathComponent("test")
            )
            let mark = "echo \"$(basename \"$0\") $*\" >> '\(marks.path)'"
            var files = [
                "scripts/install-deps.sh": mark,
                "scripts/test-kernel": mark,
                "scripts/test-package": mark,
                "scripts/test-debian-swift": mark,
                "scripts/test-sanitizers": mark,
                "scripts/test-browser": mark,
                "scripts/package": mark + "\necho /checkout/.build/package/plumometer_0.1.0-1_amd64.deb",
                "stubs/swift": mark,
                "stubs/id": "echo 1000",
            ]
            if sudo { files["stubs/sudo"] = "echo \"sudo $*\" >> '\(marks.path)'\nexec \"$@\"" }
            for (path, body) in files {
                let file = root.appendingPathComponent(path)
                try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
                chmod(file.path, 0o755)
            }
            // Only these on PATH: no sudo unless its stand-in is there.
            for tool in ["bash", "dirname", "basename", "sed"] {
                for directory in ["/usr/bin", "/bin"]
                where FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)") {
                    try FileManager.default.createSymbolicLink(
                        atPath: stubs.appendingPathComponent(tool).path,
                        withDestinationPath: "\(directory)/\(tool)"
                    )
                    break
                }
            }
        }

        func run() throws -> (result: ProcessResult, marks: [String]) {
            let result = try ProcessRunner.run(
                "/bin/bash",
                [root.appendingPathComponent("scripts/test").path],
                environment: ["PATH": stubs.path],
                timeout: 60
            )
            let text = (try? String(contentsOf: marks, encoding: .utf8)) ?? ""
            return (result, text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }

    @Test func aUserRunsTheRootTiersThroughSudoAndIsTold() throws {
        let (result, marks) = try Checkout(sudo: true).run()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("need root: running them through sudo"))
        let deb = "/checkout/.build/package/plumometer_0.1.0-1_amd64.deb"
        for tier in ["test-kernel", "test-package --deb \(deb)", "test-debian-swift"] {
            #expect(marks.contains("sudo scripts/\(tier)"), "\(marks)")
            #expect(marks.contains(tier), "\(marks)")
        }
        // The sanitizer tier, the browser test and the package are the user's, never root's.
        #expect(marks.contains("test-sanitizers"), "\(marks)")
        #expect(marks.contains("test-browser"), "\(marks)")
        #expect(!marks.contains { $0.hasPrefix("sudo scripts/test-browser") }, "\(marks)")
        #expect(!marks.contains { $0.hasPrefix("sudo scripts/test-sanitizers") }, "\(marks)")
        #expect(marks.contains("package --output .build/package"), "\(marks)")
        #expect(!marks.contains { $0.hasPrefix("sudo scripts/package") }, "\(marks)")
    }

    @Test func withoutSudoItFailsWithTheCommandToRunAsRoot() throws {
        let (result, marks) = try Checkout(sudo: false).run()
        #expect(result.status == 1)
        #expect(result.stderr.contains("need root, and there is no sudo; as root, run:"), "\(result.stderr)")
        #expect(
            result.stderr.contains("&& scripts/test-kernel && scripts/test-package && scripts/test-debian-swift"),
            "\(result.stderr)"
        )
        #expect(
            !marks.contains { $0.hasPrefix("test-") && $0 != "test-sanitizers" && $0 != "test-browser" },
            "\(marks)"
        )
    }
}
