import Foundation
import Glibc
import PlumometerTestSupport
import Testing

/// scripts/plumometer builds with the same plan from a terminal and from a pipe, so switching between them does not
/// rebuild: SwiftPM adds -color-diagnostics to its plan when its output is a terminal.
@Suite("scripts/plumometer: one build plan")
struct BuildOnceTests {
    /// A copy of scripts/plumometer and install-deps.sh in a scratch checkout, with stand-ins on PATH: `swift`
    /// writes whether its stdout and stderr are terminals and its arguments to `marks`, and leaves a
    /// `.build/release/plumometer` that prints its arguments; dpkg-query says every package is installed.
    struct Checkout {
        let root: URL
        let marks: URL
        let path: String

        init() throws {
            root = try CLI.temporaryDirectory().appendingPathComponent("checkout")
            let scripts = root.appendingPathComponent("scripts")
            let stubs = root.appendingPathComponent("stubs")
            marks = root.appendingPathComponent("marks")
            for directory in [scripts, stubs] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            for name in ["plumometer", "install-deps.sh"] {
                try FileManager.default.copyItem(
                    at: try InstallScriptTests.scripts.appendingPathComponent(name),
                    to: scripts.appendingPathComponent(name)
                )
            }
            let tools = [
                "swift": """
                if [ -t 1 ]; then out=terminal; else out=pipe; fi
                if [ -t 2 ]; then err=terminal; else err=pipe; fi
                echo "stdout $out stderr $err: swift $*" >> '\(marks.path)'
                mkdir -p .build/release
                printf '#!/bin/sh\\necho "plumometer $*"\\n' > .build/release/plumometer
                chmod +x .build/release/plumometer
                """,
                "dpkg-query": "echo 'install ok installed'",
                "clang": "echo /usr/lib/libstdc++.a",
            ]
            for (tool, body) in tools {
                let stub = stubs.appendingPathComponent(tool)
                try "#!/bin/sh\n\(body)\n".write(to: stub, atomically: true, encoding: .utf8)
                chmod(stub.path, 0o755)
            }
            path = stubs.path + ":/usr/bin:/bin"
        }

        var script: String { root.appendingPathComponent("scripts/plumometer").path }

        /// What `swift` recorded, one line per build.
        func builds() throws -> [String] {
            try String(contentsOf: marks, encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || Requirements.all))
    func aTerminalThenAPipeThenATerminalIsOneBuild() throws {
        let checkout = try Checkout()
        // From a terminal (script(1) gives the script a pseudo-terminal for stdin, stdout and stderr) ...
        let terminal = try ProcessRunner.run(
            "/usr/bin/script",
            ["-qec", "'\(checkout.script)' --version", "/dev/null"],
            environment: ["PATH": checkout.path],
            timeout: 60
        )
        #expect(terminal.status == 0, "\(terminal.stdout)\(terminal.stderr)")
        #expect(terminal.stdout.contains("plumometer --version"))
        // ... then with stdout and stderr pipes, then from a terminal again.
        let piped = try ProcessRunner.run(checkout.script, ["--version"], environment: ["PATH": checkout.path])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "plumometer --version\n")
        _ = try ProcessRunner.run(
            "/usr/bin/script",
            ["-qec", "'\(checkout.script)' --version", "/dev/null"],
            environment: ["PATH": checkout.path],
            timeout: 60
        )
        let builds = try checkout.builds()
        #expect(builds.count == 3)
        // The same command seeing the same kind of output every time: one plan, so one build.
        #expect(Set(builds) == ["stdout pipe stderr pipe: swift build -c release --product plumometer"], "\(builds)")
    }
}
