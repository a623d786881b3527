import Foundation
import Glibc
import PlumometerTestSupport
import Testing

/// The scripts' agreements: install.sh and uninstall.sh put and take the user units in one place, with or without
/// sudo, and every script's --help prints its usage and does nothing else.
@Suite("Install scripts: paths and help", .serialized)
struct ScriptAgreementTests {
    /// Runs `scripts/NAME` with `arguments` and `environment` (on top of ours).
    func script(_ name: String, _ arguments: [String], environment: [String: String]) throws -> ProcessResult {
        try ProcessRunner.run(
            "/bin/sh",
            [try InstallScriptTests.scripts.appendingPathComponent(name).path] + arguments,
            environment: environment,
            timeout: 60
        )
    }

    /// install.sh and uninstall.sh put and take the user units in the same place: the user's
    /// `$XDG_CONFIG_HOME/systemd/user` (default `~/.config`), and under sudo the home of the user who ran sudo,
    /// where root's own `XDG_CONFIG_HOME` does not count.
    @Test func userUnitsGoAndComeFromTheSameDirectory() throws {
        let root = try CLI.temporaryDirectory().appendingPathComponent("units")
        var cases: [(environment: [String: String], directory: String)] = [
            (["HOME": "/home/ann", "XDG_CONFIG_HOME": "/home/ann/cfg", "SUDO_USER": ""], "home/ann/cfg/systemd/user"),
            (["HOME": "/home/ann", "XDG_CONFIG_HOME": "", "SUDO_USER": ""], "home/ann/.config/systemd/user"),
            // A relative XDG_CONFIG_HOME is ignored, as the XDG specification says.
            (["HOME": "/home/ann", "XDG_CONFIG_HOME": "cfg", "SUDO_USER": ""], "home/ann/.config/systemd/user"),
        ]
        if getuid() == 0, let nobody = getpwnam("nobody"),
            let home = nobody.pointee.pw_dir.map({ String(cString: $0) }),
            home != "/"
        {
            // As under `sudo`: root runs the script for the user in SUDO_USER (here `nobody`).
            let relative = String(home.dropFirst())
            cases += [
                (
                    ["HOME": "/root", "XDG_CONFIG_HOME": "/root/.config", "SUDO_USER": "nobody"],
                    "\(relative)/.config/systemd/user"
                ),
                (
                    ["HOME": "/root", "XDG_CONFIG_HOME": "\(home)/cfg", "SUDO_USER": "nobody"],
                    "\(relative)/cfg/systemd/user"
                ),
            ]
        }
        for (environment, directory) in cases {
            let install = try script(
                "install.sh",
                ["--destdir", root.path, "--user-units", "--binary", try CLI.binary],
                environment: environment
            )
            #expect(install.status == 0, "\(install.stderr)")
            let units = root.appendingPathComponent(directory)
            for unit in ["plumometer.service", "plumometer@.service", "plumometer-serve.service"] {
                #expect(
                    FileManager.default.fileExists(atPath: units.appendingPathComponent(unit).path),
                    "\(environment): \(unit) not in \(directory); \(install.stdout)"
                )
            }
            let uninstall = try script(
                "uninstall.sh",
                ["--destdir", root.path, "--user-units"],
                environment: environment
            )
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: units.path)) ?? []
            #expect(left.isEmpty, "\(environment): uninstall.sh left \(left) in \(directory)")
        }
    }

    /// Every script answers --help with its usage and exit 0, quickly, starting nothing: the tools a script
    /// could start (the Swift toolchain, apt, sudo, udev, systemd) are replaced by stand-ins that leave a mark.
    @Test func everyScriptHasAHelpThatDoesNothingElse() throws {
        let stubs = try CLI.temporaryDirectory().appendingPathComponent("stubs")
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        let marks = stubs.appendingPathComponent("marks")
        for tool in ["swift", "swiftc", "clang", "apt-get", "dpkg-query", "sudo", "udevadm", "systemctl", "install"] {
            let stub = stubs.appendingPathComponent(tool)
            try "#!/bin/sh\necho \"\(tool) $*\" >> '\(marks.path)'\nexit 1\n".write(
                to: stub,
                atomically: true,
                encoding: .utf8
            )
            chmod(stub.path, 0o755)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: try InstallScriptTests.scripts.path).filter {
            name in
            var isDirectory: ObjCBool = false
            let path = (try? InstallScriptTests.scripts.appendingPathComponent(name).path) ?? name
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }
        #expect(
            Set(names).isSuperset(of: [
                "install.sh", "uninstall.sh", "install-deps.sh", "test", "plumometer", "benchmark", "fuzz",
                "golden-outputs.py", "make-demo-recording.py",
            ])
        )
        let path = stubs.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for name in names.sorted() {
            let clock = ContinuousClock()
            let start = clock.now
            let result = try ProcessRunner.run(
                try InstallScriptTests.scripts.appendingPathComponent(name).path,
                ["--help"],
                environment: ["PATH": path],
                timeout: 60
            )
            let elapsed = clock.now - start
            // The usage only: never a line of the script itself.
            #expect(!result.stdout.contains("set -e"), "\(name) --help printed: \(result.stdout)")
            #expect(result.status == 0, "\(name) --help: status \(String(describing: result.status)), \(result.stderr)")
            #expect(
                result.stdout.lowercased().contains("usage") || result.stdout.contains("scripts/\(name)"),
                "\(name) --help printed: \(result.stdout)"
            )
            // What a script starts is proved by the stubs' marks below; the time only has to rule out a build or
            // a download (minutes), with room for a machine the parallel suite loads (fuzz --help once took 18.8 s
            // beside the 200 MB replays).
            #expect(elapsed < .seconds(45), "\(name) --help took \(elapsed)")
            let started = (try? String(contentsOf: marks, encoding: .utf8)) ?? ""
            #expect(started.isEmpty, "\(name) --help started: \(started)")
            try? FileManager.default.removeItem(at: marks)
        }
    }
}
