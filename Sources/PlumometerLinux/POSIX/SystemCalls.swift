import Glibc

/// The errno policy of the bridge, in one place: retry `EINTR`, hand every other failure to the caller.
///
/// - Parameters:
///   - body: a C call that returns -1 and sets errno on failure.
/// - Returns: the call's result, or the errno it failed with.
func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Swift.Result<Result, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let error = Glibc.errno
        if error == EINTR { continue }
        return .failure(Errno(rawValue: error))
    }
}

/// An errno value, carried through `Result`.
struct Errno: Error, Hashable {
    var rawValue: Int32
}

/// A libevdev call's "negative errno" convention turned into `Result`, retrying `-EINTR`.
func retryingLibevdev(_ body: () -> Int32) -> Swift.Result<Int32, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        if -result == EINTR { continue }
        return .failure(Errno(rawValue: -result))
    }
}

/// Opens `path` read-only, non-blocking and close-on-exec. The corresponding C function is `open(2)`.
func openInputNode(_ path: String) throws(DeviceError) -> Int32 {
    switch retryingOnInterrupt({ Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }) {
    case .success(let fd): return fd
    case .failure(let error): throw DeviceError(path: path, function: "open", errno: error.rawValue)
    }
}

/// Closes `fd`, ignoring errors: after `close(2)` fails the descriptor is released anyway on Linux.
func closeDescriptor(_ fd: Int32) {
    _ = Glibc.close(fd)
}

/// The current time of `CLOCK_MONOTONIC` (or `CLOCK_REALTIME`), in microseconds. The C function is `clock_gettime`.
func clockMicroseconds(monotonic: Bool) -> Int64 {
    var now = timespec()
    let status = clock_gettime(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &now)
    precondition(status == 0, "clock_gettime cannot fail for a valid clock id")
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
}

/// Whether `fd` reports a hang-up or an error right now, without waiting. The C function is `poll(2)`.
///
/// A removed evdev device makes `poll` report `POLLHUP | POLLERR`; libevdev turns an end-of-file read into
/// `-EAGAIN`, so this is how the bridge tells "nothing to read" from "nothing will ever come".
func descriptorHasHungUp(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let result = retryingOnInterrupt { poll(&entry, 1, 0) }
    guard case .success(let ready) = result, ready > 0 else { return false }
    return entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
}
