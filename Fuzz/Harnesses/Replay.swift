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

/// Feeds `bytes` to a `RecordingStream` in pieces whose sizes come from the bytes themselves, and checks it
/// against the whole reader: every event the stream yields is the one the whole reader gives at that place, a
/// stream that ends cleanly yields everything the whole reader does, and a file the whole reader refuses is
/// refused by the stream too.
func streamRecording(bytes: [UInt8], fileName: String) {
    var whole: [(description: DeviceDescription, events: [RawEvent], complete: Bool)] = []
    var wholeFailed = false
    do {
        for device in try RecordingReader.read(bytes: bytes, fileName: fileName).devices {
            var source = device.events
            var events: [RawEvent] = []
            var complete = true
            do {
                while let event = try source.next() { events.append(event) }
            } catch {
                complete = false
            }
            whole.append((device.description, events, complete))
        }
    } catch {
        wholeFailed = true
    }

    var stream = RecordingStream(fileName: fileName)
    var devices: [DeviceDescription] = []
    var events: [[RawEvent]] = []
    var streamFailed = false
    func drain() -> Bool {
        do {
            while let item = try stream.next() {
                switch item {
                case .device(let device):
                    require(
                        device.index == devices.count,
                        "device \(device.index) announced as number \(devices.count)"
                    )
                    devices.append(device.description)
                    events.append([])
                case .event(let event, _):
                    require(!devices.isEmpty, "an event before any device")
                    events[events.count - 1].append(event)
                }
            }
            return true
        } catch {
            require(!error.message.isEmpty, "a stream error without a message")
            streamFailed = true
            return false
        }
    }
    var offset = 0
    var piece = 1
    while offset < bytes.count {
        piece = Int(bytes[offset] % 61) + 1 + (piece % 7) * 500
        let end = min(bytes.count, offset + piece)
        stream.feed(bytes[offset..<end])
        offset = end
        guard drain() else { break }
    }
    if !streamFailed {
        stream.finish()
        _ = drain()
    }
    require(stream.isAtEnd || streamFailed, "a finished stream that is not at its end")
    if wholeFailed {
        require(streamFailed, "the whole reader refused the file, the stream did not")
        return
    }
    require(devices.count <= whole.count, "the stream announced \(devices.count) devices, the file has \(whole.count)")
    for (index, description) in devices.enumerated() {
        require(description == whole[index].description, "device \(index) described differently by the stream")
        require(
            whole[index].events.starts(with: events[index]),
            "device \(index): the stream's events differ from the whole reader's"
        )
    }
    if !streamFailed {
        require(devices.count == whole.count, "a clean stream missed devices")
        for index in whole.indices {
            require(whole[index].complete, "the stream read device \(index) cleanly, the whole reader did not")
            require(events[index] == whole[index].events, "a clean stream missed events of device \(index)")
        }
    }
}
