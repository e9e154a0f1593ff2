// The mailbox of one render: where its query results and fired timers arrive, from any thread,
// the render's log of the failures it met (for a cache that drops failures, and for an
// ErrorBoundary that tries again), and the results it keeps for its components when the cache
// may forget them before the render ends.
import Synchronization

/// Where query results reach one render, from any thread, in the order they arrive.
final class QueryMailbox: Sendable {
    typealias Delivery = (QueryID, Result<any Sendable, any Error>)

    private struct State {
        var deliveries: [Delivery] = []
        var waiter: CheckedContinuation<[Delivery]?, Never>?
        var isClosed = false
        /// Timers that fired, for the render to take (`takeFiredTimers`).
        var timers: [RenderTimers.Fired] = []
        /// Keys whose stored failure the render met, in order (a key each time it was met): what
        /// a cache that drops failures forgets when the render ends, and what an ErrorBoundary
        /// that tries again forgets of the failures met beneath it.
        var failureLog: [String] = []
        /// The results delivered to the render and the failures it met, by key, when its cache
        /// may forget them before the render ends (see `QueryCache.rendersKeepResults`).
        var kept: [String: QueryCache.Entry] = [:]
    }

    private let state = Locked(State())
    /// Keys the render's components started on the immediate path that did not finish at once,
    /// until the render applies their result. Only the render's own task reads and changes it
    /// (its components as they read, its runner as it applies): no query does, so it takes no
    /// lock (three lock round trips per suspended component did).
    @exclusivity(unchecked) nonisolated(unsafe) private var awaiting: Set<String> = []
    /// Whether `kept` holds anything: reads skip the lock when not.
    private let keepsAny = Atomic<Bool>(false)
    /// `failureLog.count`, written under the lock.
    private let failuresLogged = Atomic<Int>(0)

    /// A component of the render started `key` at once and it did not finish at once: its
    /// result reaches the render through this mailbox, and until the render applies it, every
    /// component of the render that reads the key suspends on it, even if the result is stored
    /// already. So which components show their fallback never depends on timing.
    func noteAwaiting(_ key: String) {
        awaiting.insert(key)
    }

    /// Makes room for `count` keys started at once, so that the set does not rehash as it grows.
    func reserveAwaiting(_ count: Int) {
        guard count > 0 else { return }
        awaiting.reserveCapacity(count)
    }

    /// How many keys `awaiting` holds before it grows.
    var awaitingCapacity: Int {
        awaiting.capacity
    }

    /// Whether the render waits on `key` through `noteAwaiting`.
    func isAwaiting(_ key: String) -> Bool {
        !awaiting.isEmpty && awaiting.contains(key)
    }

    /// The render applied the result of `key`; returns whether it was awaiting it.
    @discardableResult
    func applied(_ key: String) -> Bool {
        !awaiting.isEmpty && awaiting.remove(key) != nil
    }

    /// The keys still awaited, for the render to leave when it ends.
    func takeAwaiting() -> Set<String> {
        defer { awaiting = [] }
        return awaiting
    }

    /// Delivers a query's result to the render. With `keeping`, a key's result also stays
    /// readable by the render's components until it ends (see `kept(_:)`), whatever becomes of
    /// it in the cache.
    func post(_ query: QueryID, _ result: Result<any Sendable, any Error>, keeping: Bool = false) {
        let waiter: CheckedContinuation<[Delivery]?, Never>? = state.withLock { state in
            if state.isClosed { return nil }
            if keeping, case .key(let key) = query { keep(QueryCache.Entry(result), for: key, in: &state) }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.deliveries.append((query, result))
            return nil
        }
        waiter?.resume(returning: [(query, result)])
    }

    /// The render met the failure stored under `key`; with `keeping`, the failure stays
    /// readable by its components until it ends, whatever becomes of it in the cache.
    func noteFailure(_ key: String, keeping error: (any Error)? = nil) {
        state.withLock { state in
            state.failureLog.append(key)
            failuresLogged.store(state.failureLog.count, ordering: .releasing)
            if let error, !state.isClosed { keep(.failure(error), for: key, in: &state) }
        }
    }

    private func keep(_ entry: QueryCache.Entry, for key: String, in state: inout State) {
        state.kept[key] = entry
        keepsAny.store(true, ordering: .relaxed)
    }

    /// The result kept for `key`: delivered to the render, or a failure it met, while its
    /// cache may have forgotten it (expired, or dropped when another render ended).
    func kept(_ key: String) -> QueryCache.Entry? {
        if !keepsAny.load(ordering: .relaxed) { return nil }
        return state.withLock { $0.kept[key] }
    }

    /// Forgets the failures kept for `keys`: an ErrorBoundary tries its content again.
    func forgetKeptFailures(_ keys: Set<String>) {
        guard keepsAny.load(ordering: .relaxed) else { return }
        state.withLock { state in
            for key in keys {
                if case .failure? = state.kept[key] { state.kept[key] = nil }
            }
        }
    }

    /// Lets go of every kept result: the render ended.
    func releaseKept() {
        guard keepsAny.load(ordering: .relaxed) else { return }
        state.withLock { state in
            state.kept = [:]
            keepsAny.store(false, ordering: .relaxed)
        }
    }

    /// How many failures the render met so far: read before every component evaluated again,
    /// so without the lock.
    var failureCount: Int {
        failuresLogged.load(ordering: .acquiring)
    }

    /// The failures met since the render had met `count`, to forget (`QueryCache.dropFailures`).
    func failures(since count: Int) -> FailuresMet {
        let keys = state.withLock { Set($0.failureLog[min(count, $0.failureLog.count)...]) }
        return FailuresMet(keys: keys, mailbox: self)
    }

    /// Failures a render met, by key: forgetting them forgets them in the cache and in what the
    /// render keeps, so that its components run their queries again.
    struct FailuresMet {
        let keys: Set<String>
        let mailbox: QueryMailbox
    }

    /// The keys whose failure the render met.
    func takeFailedKeys() -> Set<String> {
        state.withLock { state in
            defer {
                state.failureLog = []
                failuresLogged.store(0, ordering: .releasing)
            }
            return Set(state.failureLog)
        }
    }

    /// A timer of the render fired: wakes the render (with no result) to take it.
    func postTimer(_ fired: RenderTimers.Fired) {
        let waiter: CheckedContinuation<[Delivery]?, Never>? = state.withLock { state in
            if state.isClosed { return nil }
            state.timers.append(fired)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    /// The timers that fired since the last call, in the order they fired.
    func takeFiredTimers() -> [RenderTimers.Fired] {
        state.withLock { state in
            defer { state.timers = [] }
            return state.timers
        }
    }

    /// Every result that arrived since the last call (waiting for one, or for a timer, if none
    /// did), or nil once the mailbox is closed or the waiting task is cancelled. Taking them all at once spares
    /// the render a wake-up per result when many arrive together.
    func next() async -> [Delivery]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Delivery]?, Never>) in
                let ready: [Delivery]?? = state.withLock { state in
                    if !state.deliveries.isEmpty || !state.timers.isEmpty {
                        defer { state.deliveries = [] }
                        return .some(state.deliveries)
                    }
                    if state.isClosed { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
    }

    /// The results that arrived since the last call, without waiting: the render takes them
    /// with the one that woke it, which arrived alone.
    func takeArrived() -> [Delivery] {
        state.withLock { state in
            if state.deliveries.isEmpty { return [] }
            defer { state.deliveries = [] }
            return state.deliveries
        }
    }

    /// Wakes the waiting render with nil, now and for every later call.
    func close() {
        let waiter = state.withLock { state in
            state.isClosed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
