// The version `plumometer --version` prints, read at build time from the one place it is kept (the first
// `## VERSION - DATE` heading of CHANGELOG.md), and the git commit when the checkout is not that release's tag.
//
// A prebuild command, because only it runs on every build (a build command runs when its declared inputs change,
// and a new commit changes none of the files a build could declare). It runs /bin/sh, not a tool built from
// source (which a prebuild command may not use), on scripts/lib/build-version.sh, which rewrites the generated
// file only when its text changes: an unchanged version recompiles nothing.
import Foundation
import PackagePlugin

@main
struct BuildVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        return [
            .prebuildCommand(
                displayName: "plumometer's version from CHANGELOG.md and git",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    package.appendingPathComponent("scripts/lib/build-version.sh").path, package.path,
                    output.appendingPathComponent("BuildVersion.swift").path,
                ],
                outputFilesDirectory: output
            )
        ]
    }
}
