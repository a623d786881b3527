// swift-tools-version:6.0
//
// plumometer: a pressure-capable Linux touchpad, touchscreen or pen tablet as a multi-object scale.
//
// Layering (see docs/architecture.md):
//   CLibevdev, CLibudev, CPOSIX, CMicroHTTPD  C modules: a module map and a shim header each, nothing else.
//   PlumometerCore           pure Swift (standard library only): vocabulary, decoding, tracking, calibration.
//   PlumometerRecording      pure Swift: evemu and `libinput record` readers, the evemu writer.
//   PlumometerOutput         pure Swift: the line formats, number text, the live view's screen (golden-line tests).
//   PlumometerSeams          pure Swift, the seams alone (as NIOCore is to swift-nio): the event loop with its
//                            signals, job control, resize and end-of-source hold; the console (stdout as a terminal,
//                            its latest-state mode); the keyboard; clocks; files and environment; live devices.
//   PlumometerSession        pure Swift: the pipeline, the sources (the live device among them) and the consumers of
//                            every reading command, one `Session.run`, over the seams (which it re-exports).
//   PlumometerLinux          the only Swift target that imports C: evdev devices, udev, and the POSIX edge (the
//                            poll loop, signals, files, the terminal, clocks) that implements the seams; it depends
//                            on PlumometerCore and PlumometerSeams only, not on the session.
//   PlumometerCLI            options, commands and the live device side; `plumometer` is its thin entry point.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

// Start-up (docs/performance.md, "Start-up"). By default the compiler names a concrete generic type such as
// `[AbsoluteAxis: Int32]` by its mangled name, and the runtime demangles it on first use, looking the type's
// conformances up by a scan of every conformance record in the binary: a third of the instructions from spawn to the
// first device record. This flag makes the code call the type's metadata accessor directly instead. It is an
// unsafe flag, so it stays off `PlumometerCore`, the one target another package may depend on.
let startupSettings: [SwiftSetting] =
    strictSettings + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

// The C++ and unwinding runtimes the Swift runtime needs, linked into the executable like the Swift runtime itself:
// `Link/static-libstdc++/libstdc++.so` is a linker script that names Debian's `libstdc++.a` (libstdc++-NN-dev, which
// the Swift toolchain requires), found ahead of the shared library, and `-static-libgcc` does the same for libgcc.
// The dynamic loader no longer loads libstdc++.so.6 and libgcc_s.so.1 nor resolves their 1,700 symbol relocations at
// every start: --version went from 3.0 to 1.1 million instructions.
let staticRuntimeLinkerFlags = [
    "-static-stdlib", "-L", Context.packageDirectory + "/Link/static-libstdc++", "-Xclang-linker", "-static-libgcc",
]

let package = Package(
    name: "plumometer",
    products: [
        .executable(name: "plumometer", targets: ["plumometer"]),
        .library(name: "PlumometerCore", targets: ["PlumometerCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // poll, signalfd and eventfd for the process edge (PlumometerLinux/POSIX), apart from the device's libevdev.
        .systemLibrary(name: "CPOSIX"),
        .systemLibrary(
            name: "CLibudev",
            pkgConfig: "libudev",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        // libmicrohttpd for `plumometer serve`, behind a shim of non-variadic calls (PlumometerLinux/HTTP).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "PlumometerCore",
            swiftSettings: strictSettings,
            // Double.rounded() and friends call libm; a target that imports nothing must ask for it.
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(name: "PlumometerRecording", dependencies: ["PlumometerCore"], swiftSettings: startupSettings),
        // The bundled demo recording: one generated file (scripts/make-demo-recording.py), kept out of the readers.
        .target(name: "PlumometerDemo", swiftSettings: startupSettings),
        // Everything that turns readings into text, pure so golden-line tests run in milliseconds; the CLI writes it.
        .target(name: "PlumometerOutput", dependencies: ["PlumometerCore"], swiftSettings: startupSettings),
        // The seams between the pure targets and the process: the bridge implements them for real, the test kit
        // in-process (an embedded loop, a capturing console, emulated devices, keys typed by the test).
        .target(name: "PlumometerSeams", dependencies: ["PlumometerCore"], swiftSettings: startupSettings),
        // Sources, consumers and the session that runs them, pure, over the seams.
        .target(
            name: "PlumometerSession",
            dependencies: [
                "PlumometerCore", "PlumometerSeams", "PlumometerRecording", "PlumometerOutput", "PlumometerPictures",
            ],
            swiftSettings: startupSettings
        ),
        .target(
            name: "PlumometerLinux",
            dependencies: ["PlumometerCore", "PlumometerSeams", "CLibevdev", "CLibudev", "CPOSIX", "CMicroHTTPD"],
            swiftSettings: startupSettings
        ),
        .target(
            name: "PlumometerCLI",
            dependencies: [
                "PlumometerCore", "PlumometerRecording", "PlumometerDemo", "PlumometerOutput", "PlumometerSeams",
                "PlumometerSession", "PlumometerLinux", "PlumometerPictures",
            ],
            swiftSettings: startupSettings,
            plugins: ["BuildVersion"]
        ),
        // `BuildVersion.version` and `.commit` for `plumometer --version`: CHANGELOG.md's first heading, and the git
        // commit unless built from that release's tag (Plugins/BuildVersion, scripts/lib/build-version.sh).
        .plugin(name: "BuildVersion", capability: .buildTool()),
        // The Swift runtime linked in (only what is used, no dynamic loading of eight runtime libraries), and the C++
        // runtime with it (staticRuntimeLinkerFlags above): a lean process (docs/performance.md). Allowed here because
        // an executable is never another package's dependency; PlumometerCore, the library product, has no unsafe flags.
        .executableTarget(
            name: "plumometer",
            dependencies: ["PlumometerCLI"],
            swiftSettings: startupSettings,
            linkerSettings: [.unsafeFlags(staticRuntimeLinkerFlags)]
        ),
        // Pictures of readings, pure: the live pad map (terminal cells) and the SVG plot of a recording.
        .target(
            name: "PlumometerPictures",
            dependencies: ["PlumometerCore", "PlumometerOutput"],
            swiftSettings: startupSettings
        ),
        // The test kit, pure like the core: shared tags, a catalogue of devices and an event-script builder.
        // The embedded event loop, the capturing console, set clocks, emulated devices and typed keys for sessions
        // run in-process: every seam.
        .target(
            name: "PlumometerTestKit",
            dependencies: ["PlumometerCore", "PlumometerSeams", "PlumometerSession"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PlumometerTestSupport",
            dependencies: ["PlumometerCore", "PlumometerRecording"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plumometer-bridge-probe",
            dependencies: ["PlumometerLinux", "PlumometerSeams", "PlumometerCore"],
            path: "Tests/BridgeProbe",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plumometer-discovery-probe",
            dependencies: ["PlumometerLinux", "PlumometerSeams", "PlumometerCore"],
            path: "Tests/DiscoveryProbe",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerCoreTests",
            dependencies: ["PlumometerCore", "PlumometerTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerOutputTests",
            dependencies: ["PlumometerOutput", "PlumometerCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerPicturesTests",
            dependencies: [
                "PlumometerPictures", "PlumometerOutput", "PlumometerCore", "PlumometerTestSupport",
                "PlumometerTestKit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerRecordingTests",
            dependencies: [
                "PlumometerRecording", "PlumometerDemo", "PlumometerCore", "PlumometerTestSupport", "PlumometerTestKit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerSessionTests",
            dependencies: [
                "PlumometerSession", "PlumometerCore", "PlumometerRecording", "PlumometerOutput", "PlumometerDemo",
                "PlumometerTestKit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerLinuxTests",
            dependencies: [
                "PlumometerLinux", "PlumometerSeams", "PlumometerCore", "PlumometerTestSupport", "CLibevdev",
                "PlumometerTestKit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlumometerCLITests",
            dependencies: [
                "PlumometerCLI", "PlumometerSession", "PlumometerCore", "PlumometerTestSupport", "PlumometerTestKit",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
