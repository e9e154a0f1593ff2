/// A second tier for a ``QueryCache``, shared by many processes (the servers behind one load
/// balancer): values one process loaded are read by the others, and only one of them runs a
/// cold key while the others wait for its value.
///
/// A cache given a store (``QueryCache/init(store:storeOptions:capacity:failures:lifetime:clock:)``)
/// stays the first tier: reads that find a result in process never reach the store. The store is
/// consulted inside a run, for keys read with ``resolveValue(key:scope:tags:query:)`` only: a
/// miss in process asks the store; a miss there claims the key; the process that wins runs the
/// query and sets its value, the others wait for that value. Every call is bounded by the cache's
/// ``QueryCache/StoreOptions/timeout``: a store that fails, is slow or is down makes the run
/// fall back to running the query, and the error goes to ``QueryCache/StoreOptions/onError``.
///
/// Values are `Codable`; the store encodes them as it likes. SuspenseKit ships no store: the
/// `SuspenseKitPostgres` package implements one on PostgreSQL.
public protocol QueryStore: Sendable {
    /// The value stored under `key`, or nil when there is none or it expired.
    func value<Value: Decodable & Sendable>(for key: String, as type: Value.Type) async throws -> Value?

    /// Stores `value` under `key` for `lifetime`, noting `tags` for ``invalidate(_:)``.
    func setValue<Value: Encodable & Sendable>(
        _ value: Value, for key: String, lifetime: Duration, tags: [String]
    ) async throws

    /// Forgets the values the invalidation names, and tells the other processes' caches, so
    /// that they drop those keys from their first tier (see ``observeInvalidations(_:)``).
    func invalidate(_ invalidation: QueryStoreInvalidation) async throws

    /// Tries to become the one process that runs `key`'s query: `.won` at most once among all
    /// processes until ``release(_:)``, `.lost` while another holds it. A claim held by a process
    /// that died must end on its own (with its connection, or after `duration`, a lease).
    func claim(_ key: String, for duration: Duration) async throws -> QueryStoreClaim

    /// Ends a claim this store won, once the value is set (or the query failed).
    func release(_ key: String) async throws

    /// Registers `handler`, called with each invalidation made by another process, so that the
    /// cache drops the keys it names from its first tier. A cache registers once, when it is made.
    func observeInvalidations(_ handler: @escaping @Sendable (QueryStoreInvalidation) -> Void)
}

/// What a ``QueryStore`` forgets, and tells other processes to forget.
public enum QueryStoreInvalidation: Sendable, Hashable {
    /// One key.
    case key(String)
    /// Every key that begins with the string (a plain string prefix).
    case prefix(String)
    /// Every key set with the tag.
    case tag(String)

    /// Whether the invalidation names `key`, set with `tags`.
    public func matches(_ key: String, tags: [String]) -> Bool {
        switch self {
        case .key(let other): other == key
        case .prefix(let prefix): key.hasPrefix(prefix)
        case .tag(let tag): tags.contains(tag)
        }
    }
}

/// Whether this process runs a cold key (``QueryStore/claim(_:for:)``).
public enum QueryStoreClaim: Sendable, Hashable {
    /// This process runs the query, sets the value and releases the claim.
    case won
    /// Another process runs it: wait for its value.
    case lost
}
