import PlumometerCore
import PlumometerRecording

/// Reads `bytes` as a recording and replays every device through a checked decoder and tracker.
func replayRecording(bytes: [UInt8], fileName: String) {
    let recording: Recording
    do {
        recording = try RecordingReader.read(bytes: bytes, fileName: fileName)
    } catch {
        require(!error.message.isEmpty, "an error without a message")
        return
    }
    require(!recording.devices.isEmpty, "a recording without devices")
    for device in recording.devices {
        var source = device.events
        var pipeline = CheckedPipeline(device: device.description)
        var lastLine = 0
        do {
            while let event = try source.next() {
                if let line = source.line {
                    require(line >= lastLine, "event lines going backwards: \(line) after \(lastLine)")
                    lastLine = line
                }
                if event.type != .syn {
                    require(
                        device.description.supports(event.type, code: event.code),
                        "an event the description does not declare: \(event)"
                    )
                }
                pipeline.consume(event)
                pipeline.tick(now: event.time)
            }
        } catch {
            require(error.line != nil, "an event error without a line: \(error)")
        }
        require((try? source.next()) == nil, "events after the end or an error")
    }
}
