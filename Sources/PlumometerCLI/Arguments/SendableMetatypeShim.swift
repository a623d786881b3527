#if compiler(<6.2)
/// Swift 6.2's marker for a protocol whose metatypes may cross isolation domains (SE-0470), which ``Command``
/// refines so that `[any Command.Type]` can be a static. Before 6.2 every metatype was `Sendable` and the marker did
/// not exist: this empty protocol stands in for it, so Debian 13's Swift 6.0.3 builds the same source.
protocol SendableMetatype {}
#endif
