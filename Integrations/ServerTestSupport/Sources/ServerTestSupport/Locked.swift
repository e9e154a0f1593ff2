import Foundation

/// A value guarded by a lock, for the tests' shared state.
///
/// Not `Synchronization.Mutex`: on Linux it waits on raw futexes, which the thread sanitizer
/// cannot see, so it reports races that are not there. `NSLock` is a pthread mutex.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
