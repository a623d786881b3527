import Glibc

/// Ends the process with `status`. The corresponding C function is `exit(3)`.
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
