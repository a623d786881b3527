public import Testing

/// The tags every test target shares: where a test came from (its provenance) and what it needs to run.
///
/// A test is filed by the behaviour it checks; how its bug was found is a tag, so
/// `swift test --filter tag:foundByFuzzing` runs every regression of the fuzz campaign, wherever it lives.
extension Tag {
    /// A regression for a fault the libFuzzer campaign found (docs/reliability.md, "Fuzzing").
    @Tag public static var foundByFuzzing: Self
    /// A regression for a fault the fault-injection tests found: drops, unplugs, signals, damaged recordings
    /// (docs/reliability.md).
    @Tag public static var foundByFaultInjection: Self
    /// A regression for a bug a code review found; it failed before its fix.
    @Tag public static var foundInReview: Self
    /// Reads an emulated device through the real libevdev under umockdev.
    @Tag public static var umockdev: Self
    /// Takes seconds rather than milliseconds (real-time replays, many runs, big inputs).
    @Tag public static var slow: Self
}
