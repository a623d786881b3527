import PlumometerCore
import PlumometerRecording

/// libFuzzer entry point: arbitrary bytes as a `libinput record` YAML file.
///
/// The bytes are prefixed with the `# libinput record` header so every input takes the YAML path (format detection
/// is the evemu harness's business); everything else is as in the evemu harness, the stream check included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array("# libinput record\n".utf8) + Array(UnsafeBufferPointer(start: data, count: size))
    replayRecording(bytes: bytes, fileName: "fuzz.yml")
    streamRecording(bytes: bytes, fileName: "fuzz.yml")
    return 0
}
