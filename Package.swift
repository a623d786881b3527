// swift-tools-version:6.0
//
// plumometer: a pressure-capable Linux touchpad, touchscreen or pen tablet as a multi-object scale.
//
// Layering (see docs/architecture.md):
//   CLibevdev, CLibudev, CPOSIX  C modules: a module map and a shim header each, nothing else.
//   PlumometerCore           pure Swift (standard library only): vocabulary, decoding, tracking, calibration.
//   PlumometerRecording      pure Swift: evemu and `libinput record` readers, the evemu writer.
//   PlumometerOutput         pure Swift: the line formats, number text, the live view's screen (golden-line tests).
//   PlumometerSession        pure Swift: the pipeline, the sources and the consumers of every reading command, one
//                            `Session.run`, behind three seams (an event loop, a console, clocks) and the files.
//   PlumometerLinux          the only Swift target that imports C: evdev devices, udev, and the POSIX edge (the
//                            poll loop, signals, files, the terminal, clocks) that provides the session's seams.
//   PlumometerCLI            options, commands and the live device side; `plumometer` is its thin entry point.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
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
        .target(
            name: "PlumometerCore",
            swiftSettings: strictSettings,
            // Double.rounded() and friends call libm; a target that imports nothing must ask for it.
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(name: "PlumometerRecording", dependencies: ["PlumometerCore"], swiftSettings: strictSettings),
        // The bundled demo recording: one generated file (scripts/make-demo-recording.py), kept out of the readers.
        .target(name: "PlumometerDemo", swiftSettings: strictSettings),
        // Everything that turns readings into text, pure so golden-line tests run in milliseconds; the CLI writes it.
        .target(name: "PlumometerOutput", dependencies: ["PlumometerCore"], swiftSettings: strictSettings),
        // Sources, consumers and the session that runs them, pure: the bridge provides the real loop, console, clocks
        // and files; the test kit an embedded loop and a capturing console.
        .target(
            name: "PlumometerSession",
            dependencies: ["PlumometerCore", "PlumometerRecording", "PlumometerOutput", "PlumometerPictures"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PlumometerLinux",
            dependencies: ["PlumometerCore", "PlumometerSession", "CLibevdev", "CLibudev", "CPOSIX"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PlumometerCLI",
            dependencies: [
                "PlumometerCore", "PlumometerRecording", "PlumometerDemo", "PlumometerOutput", "PlumometerSession",
                "PlumometerLinux", "PlumometerPictures",
            ],
            swiftSettings: strictSettings
        ),
        // The Swift runtime linked in (only what is used, no dynamic loading of eight runtime libraries): a lean
        // process, 1 ms and 6.5 MB for `--version` instead of 2.5 ms and 9 MB (docs/performance.md). Allowed here
        // because an executable is never another package's dependency; the library targets carry no unsafe flags.
        .executableTarget(
            name: "plumometer",
            dependencies: ["PlumometerCLI"],
            swiftSettings: strictSettings,
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),
        // Pictures of readings, pure: the live pad map (terminal cells) and the SVG plot of a recording.
        .target(
            name: "PlumometerPictures",
            dependencies: ["PlumometerCore", "PlumometerOutput"],
            swiftSettings: strictSettings
        ),
        // The test kit, pure like the core: shared tags, a catalogue of devices and an event-script builder.
        // The embedded event loop, the capturing console and set clocks for sessions run in-process.
        .target(
            name: "PlumometerTestKit",
            dependencies: ["PlumometerCore", "PlumometerSession"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PlumometerTestSupport",
            dependencies: ["PlumometerCore", "PlumometerRecording"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plumometer-bridge-probe",
            dependencies: ["PlumometerLinux", "PlumometerCore"],
            path: "Tests/BridgeProbe",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plumometer-discovery-probe",
            dependencies: ["PlumometerLinux", "PlumometerCore"],
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
                "PlumometerLinux", "PlumometerCore", "PlumometerTestSupport", "CLibevdev", "PlumometerTestKit",
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
