import PlumometerCore
import PlumometerRecording

/// libFuzzer entry point: arbitrary bytes as an evemu recording (description and events).
///
/// Reads the description, then every event of every device through `EventSource.next()` and on through the decoder
/// and tracker, as `plumometer replay` does; then through `RecordingStream` fed in pieces, checked against the whole
/// reader. Errors are expected; crashes, hangs, runaway memory and broken
/// invariants are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    replayRecording(bytes: bytes, fileName: "fuzz.evemu")
    streamRecording(bytes: bytes, fileName: "fuzz.evemu")
    return 0
}
