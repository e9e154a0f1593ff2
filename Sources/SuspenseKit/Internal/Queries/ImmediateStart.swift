#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The immediate start in progress on this thread: which run of which cache `QueryCache.read`
/// is starting, and the result the run left here when it finished before the start returned,
/// without suspending.
///
/// Why a thread's own record: a run that finishes while its start has not returned is on the
/// starter's thread (an immediate task runs there until it first suspends), so the record tells
/// the run "you finished at once" and carries its result back, with no lock and no table. A run
/// that suspended finishes on another thread, or after the start returned, and finds no record
/// of its run.
@usableFromInline
final class ImmediateStart {
    /// The run being started on this thread, and its cache (run numbers are per cache); 0 when none.
    private var run: UInt64 = 0
    private var cache: ObjectIdentifier?
    /// How the run ended, when it finished at once.
    private var outcome = Outcome.running

    /// How a run started here ended while its start had not returned. A value is in the
    /// starter's frame already (see `_StarterSlot`); a failure is carried here.
    enum Outcome {
        case running
        case value
        case failure(any Error)
    }

    @usableFromInline typealias Saved = (run: UInt64, cache: ObjectIdentifier?)

    /// Calls `body` with this thread's record, made on first use and released when the thread
    /// exits. Lent, not retained: the thread's key holds it (three retains and releases a query).
    @inline(__always)
    static func withCurrent<Result>(_ body: (ImmediateStart) -> Result) -> Result {
        let pointer = pthread_getspecific(key) ?? makeCurrent()
        return Unmanaged<ImmediateStart>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(ImmediateStart()).toOpaque()
        pthread_setspecific(key, pointer)
        return pointer
    }

    /// Begins starting `run`; returns what to restore with `end(restoring:)`, for a query that
    /// itself renders, starting runs on this thread inside this start. (No result is pending
    /// then: a start's result is taken by its `end` before the start around it can finish.)
    func begin(_ run: UInt64, of cache: QueryCache) -> Saved {
        defer {
            self.run = run
            self.cache = ObjectIdentifier(cache)
        }
        return (self.run, self.cache)
    }

    /// Ends the start: how the run ended, if it finished at once.
    func end(restoring saved: Saved) -> Outcome {
        (run, cache) = saved
        if case .running = outcome { return .running }
        defer { outcome = .running }
        return outcome
    }

    /// Called by a run as it finishes: notes how it ended (`failure`, or nil for a value), and
    /// returns true, when this thread is starting `run` of `cache` (it finished at once).
    func finished(_ run: UInt64, of cache: QueryCache, failure: (any Error)?) -> Bool {
        guard self.run == run && self.cache == ObjectIdentifier(cache) else { return false }
        outcome = failure.map { .failure($0) } ?? .value
        return true
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            let status = pthread_key_create(&key) { Unmanaged<ImmediateStart>.fromOpaque($0).release() }
        #else
            let status = pthread_key_create(&key) { pointer in
                if let pointer { Unmanaged<ImmediateStart>.fromOpaque(pointer).release() }
            }
        #endif
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()
}
