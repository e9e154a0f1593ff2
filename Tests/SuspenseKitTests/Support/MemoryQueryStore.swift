import Foundation

@testable import SuspenseKit

/// A `QueryStore` in memory, standing for a shared one: several caches given the same store
/// play several processes. Values are JSON-encoded, as a real store would keep them. Counts
/// every call; can be made to fail (`isDown`) or to hang until cancelled (`hangs`).
final class MemoryQueryStore: QueryStore {
    private struct Row {
        var json: Data
        var tags: [String]
    }

    private let rows = Locked<[String: Row]>([:])
    private let claimed = Locked<Set<String>>([])
    private let handlers = Locked<[@Sendable (QueryStoreInvalidation) -> Void]>([])
    private let received = Locked<[QueryStoreInvalidation]>([])
    private let failing = Locked(false)
    private let hanging = Locked(false)
    private let beforeClaim = Locked<(@Sendable () -> Void)?>(nil)

    let reads = Counter()
    let writes = Counter()
    let claimsWon = Counter()
    let claimsLost = Counter()
    let releases = Counter()
    /// Calls that hung and were cancelled.
    let cancelledCalls = Counter()

    struct Down: Error, CustomStringConvertible {
        var description: String { "the store is down" }
    }

    /// Every call throws `Down`.
    var isDown: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }

    /// Every call waits until it is cancelled.
    var hangs: Bool {
        get { hanging.withLock { $0 } }
        set { hanging.withLock { $0 = newValue } }
    }

    /// Runs `body` once, at the start of the next claim: what another process does meanwhile.
    func beforeNextClaim(_ body: @escaping @Sendable () -> Void) {
        beforeClaim.withLock { $0 = body }
    }

    /// The invalidations caches sent.
    var invalidations: [QueryStoreInvalidation] { received.withLock { $0 } }

    /// The keys stored, sorted.
    var keys: [String] { rows.withLock { $0.keys.sorted() } }

    func json(for key: String) -> String? {
        rows.withLock { $0[key].map { String(decoding: $0.json, as: UTF8.self) } }
    }

    private func enter() async throws {
        if isDown { throw Down() }
        guard hangs else { return }
        do {
            try await Task.sleep(for: .seconds(600))
        } catch {
            cancelledCalls.increment()
            throw error
        }
    }

    func value<Value: Decodable & Sendable>(for key: String, as type: Value.Type) async throws -> Value? {
        try await enter()
        reads.increment()
        guard let json = rows.withLock({ $0[key]?.json }) else { return nil }
        return try JSONDecoder().decode(Value.self, from: json)
    }

    func setValue<Value: Encodable & Sendable>(
        _ value: Value, for key: String, lifetime: Duration, tags: [String]
    ) async throws {
        try await enter()
        writes.increment()
        let json = try JSONEncoder().encode(value)
        rows.withLock { $0[key] = Row(json: json, tags: tags) }
    }

    func invalidate(_ invalidation: QueryStoreInvalidation) async throws {
        try await enter()
        received.withLock { $0.append(invalidation) }
        drop(invalidation)
    }

    private func drop(_ invalidation: QueryStoreInvalidation) {
        rows.withLock { rows in
            rows = rows.filter { !invalidation.matches($0.key, tags: $0.value.tags) }
        }
    }

    func claim(_ key: String, for duration: Duration) async throws -> QueryStoreClaim {
        try await enter()
        beforeClaim.withLock { body in
            defer { body = nil }
            return body
        }?()
        if claimed.withLock({ $0.insert(key).inserted }) {
            claimsWon.increment()
            return .won
        }
        claimsLost.increment()
        return .lost
    }

    func release(_ key: String) async throws {
        try await enter()
        releases.increment()
        claimed.withLock { _ = $0.remove(key) }
    }

    func observeInvalidations(_ handler: @escaping @Sendable (QueryStoreInvalidation) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Another process invalidated: the store forgets, and tells every cache.
    func invalidateFromElsewhere(_ invalidation: QueryStoreInvalidation) {
        drop(invalidation)
        for handler in handlers.withLock({ $0 }) { handler(invalidation) }
    }

    /// Another process claims `key` (and holds it until `releaseFromElsewhere`).
    func claimFromElsewhere(_ key: String) {
        claimed.withLock { _ = $0.insert(key) }
    }

    /// Another process ends its claim of `key`, having set `value` there or not.
    func releaseFromElsewhere(_ key: String, setting value: String? = nil) throws {
        if let value {
            let json = try JSONEncoder().encode(value)
            rows.withLock { $0[key] = Row(json: json, tags: []) }
        }
        claimed.withLock { _ = $0.remove(key) }
    }

    /// Another process set `value` under `key`.
    func preload(_ value: some Encodable, for key: String, tags: [String] = []) throws {
        let json = try JSONEncoder().encode(value)
        rows.withLock { $0[key] = Row(json: json, tags: tags) }
    }
}

/// Collects what a cache reports through `StoreOptions.onError`.
final class StoreErrors: Sendable {
    private let failures = Locked<[QueryStoreFailure]>([])

    var all: [QueryStoreFailure] { failures.withLock { $0 } }
    var operations: [QueryStoreFailure.Operation] { all.map(\.operation) }

    func record(_ failure: QueryStoreFailure) {
        failures.withLock { $0.append(failure) }
    }
}
