#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on raw futexes, which the thread sanitizer
/// cannot see, so every concurrent use of a shared ``QueryCache`` was reported as a race. A
/// pthread mutex is understood by the sanitizer and costs the same when uncontended.
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Exempt from the runtime's exclusivity checks: the mutex makes every access exclusive
    /// (a check was a runtime call and a thread-local lookup on every lock).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// `withLock(_:)`, handing `input` to `body` to keep or to move on (a closure cannot consume
    /// what it captures; an optional taken inside cost a copy and a destroy of its own).
    func withLock<Input: ~Copyable, Result>(
        passing input: consuming Input, _ body: (inout Value, consuming Input) throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value, input)
    }
}
