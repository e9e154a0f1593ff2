import Foundation
public import Logging
public import PostgresNIO
public import SuspenseKit
import Synchronization

/// A ``SuspenseKit/QueryStore`` on PostgreSQL: the second tier of the ``SuspenseKit/QueryCache``
/// of every server process that points at the same database.
///
/// - Values are JSON in an `UNLOGGED` table (key, value, tags, expiry): fast to write, emptied
///   if the server crashes, which a cache can afford. An expired row is never read, and a few
///   expired rows are deleted now and then as values are set.
/// - A claim is a session advisory lock (`pg_try_advisory_lock` on a hash of the key) on a
///   connection kept for locks: a process that dies loses its claims with its connection.
/// - An invalidation deletes the rows and sends a `NOTIFY`; every other store on the database
///   `LISTEN`s and tells its cache, which drops the keys from its first tier.
///
/// It keeps three connections, each made when first needed and made again after it failed:
/// one for reads and writes, one for claims, one to listen.
///
/// ```swift
/// let store = PostgresQueryStore(configuration: .init(
///     host: "db", username: "app", password: secret, database: "app", tls: .disable))
/// try await store.prepare()
/// let cache = QueryCache(store: store)
/// ```
public final class PostgresQueryStore: QueryStore {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    /// The table's name, a plain SQL identifier.
    public let table: String
    /// The `NOTIFY` channel: the table's name with `_invalidations`.
    public var channel: String { table + "_invalidations" }
    /// Tells this store's own notifications from others'.
    private let origin = UUID().uuidString

    private let queries: ConnectionSlot
    private let locks: ConnectionSlot
    /// The keys this store holds a claim on, and the lock connection that holds it.
    private let held = Mutex<[String: PostgresConnection.ID]>([:])
    private let handlers = Mutex<[@Sendable (QueryStoreInvalidation) -> Void]>([])
    private let listener = Mutex<Task<Void, Never>?>(nil)
    private let listening = Mutex(false)
    private let writes = Atomic<Int>(0)
    private let prepared = Mutex(false)

    /// A store on the database that `configuration` names.
    /// - Parameters:
    ///   - configuration: Where the database is and how to log in.
    ///   - table: The table's name, a plain SQL identifier (letters, digits, underscores); one
    ///     per group of processes sharing a cache.
    ///   - logger: Where the connections log.
    public init(
        configuration: PostgresConnection.Configuration,
        table: String = "suspensekit_query_store",
        logger: Logger = Logger(label: "SuspenseKitPostgres")
    ) {
        precondition(
            !table.isEmpty
                && table.utf8.allSatisfy {
                    $0 == UInt8(ascii: "_") || (48...57).contains($0) || (97...122).contains($0)
                },
            "a PostgresQueryStore's table is a lowercase SQL identifier")
        self.configuration = configuration
        self.table = table
        self.logger = logger
        queries = ConnectionSlot(configuration: configuration, logger: logger)
        locks = ConnectionSlot(configuration: configuration, logger: logger)
    }

    deinit {
        listener.withLock { $0?.cancel() }
    }

    /// Creates the table when it does not exist. Called by the first store call when not before;
    /// call it at startup to learn at once whether the database is reachable.
    public func prepare() async throws {
        if prepared.withLock({ $0 }) { return }
        let connection = try await queries.connection()
        do {
            try await run(
                on: connection,
                """
                CREATE UNLOGGED TABLE IF NOT EXISTS \(unescaped: table) (
                    key text PRIMARY KEY,
                    value bytea NOT NULL,
                    tags text[] NOT NULL DEFAULT '{}',
                    expires_at timestamptz NOT NULL
                )
                """)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // Another process created it at the same moment.
        }
        prepared.withLock { $0 = true }
    }

    /// Closes the connections and stops listening. Call it when the store is no longer used: a
    /// store that listens for invalidations is kept alive by its listening task until then.
    /// Calls after this connect again.
    public func close() async {
        listener.withLock { task in
            task?.cancel()
            task = nil
        }
        await queries.close()
        await locks.close()
    }

    /// The JSON under `key`, decoded as `type`, unless it expired.
    public func value<Value: Decodable & Sendable>(for key: String, as type: Value.Type) async throws -> Value? {
        try await prepare()
        let rows = try await queries.connection().query(
            "SELECT value FROM \(unescaped: table) WHERE key = \(key) AND expires_at > now()", logger: logger)
        for try await data in rows.decode(Data.self) {
            return try JSONDecoder().decode(Value.self, from: data)
        }
        return nil
    }

    /// Writes `value` as JSON under `key`, replacing what was there, until `lifetime` has passed.
    public func setValue<Value: Encodable & Sendable>(
        _ value: Value, for key: String, lifetime: Duration, tags: [String]
    ) async throws {
        try await prepare()
        let data = try JSONEncoder().encode(value)
        let milliseconds = Int64(
            lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000)
        let connection = try await queries.connection()
        try await run(
            on: connection,
            """
            INSERT INTO \(unescaped: table) (key, value, tags, expires_at)
            VALUES (\(key), \(data), \(tags), now() + \(milliseconds) * interval '1 millisecond')
            ON CONFLICT (key) DO UPDATE
            SET value = excluded.value, tags = excluded.tags, expires_at = excluded.expires_at
            """)
        // Now and then, a few expired rows: never a sweep of the table.
        if writes.wrappingAdd(1, ordering: .relaxed).newValue % 64 == 0 {
            try await run(
                on: connection,
                """
                DELETE FROM \(unescaped: table) WHERE ctid IN (
                    SELECT ctid FROM \(unescaped: table) WHERE expires_at <= now() LIMIT 256)
                """)
        }
    }

    /// Deletes every expired row (an hourly job, say); reads never see them either way.
    @discardableResult
    public func deleteExpired() async throws -> Int {
        try await prepare()
        let rows = try await queries.connection().query(
            "WITH gone AS (DELETE FROM \(unescaped: table) WHERE expires_at <= now() RETURNING 1) SELECT count(*) FROM gone",
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Deletes the rows `invalidation` names and notifies the other stores, in one statement.
    public func invalidate(_ invalidation: QueryStoreInvalidation) async throws {
        try await prepare()
        let connection = try await queries.connection()
        let (kind, name) = Notification.encode(invalidation)
        let payload = origin + "\t" + kind + "\t" + name
        // One statement: the rows go and the other processes are told, together.
        switch invalidation {
        case .key(let key):
            try await run(
                on: connection,
                """
                WITH gone AS (DELETE FROM \(unescaped: table) WHERE key = \(key))
                SELECT pg_notify(\(channel), \(payload))
                """)
        case .prefix(let prefix):
            try await run(
                on: connection,
                """
                WITH gone AS (DELETE FROM \(unescaped: table) WHERE starts_with(key, \(prefix)))
                SELECT pg_notify(\(channel), \(payload))
                """)
        case .tag(let tag):
            try await run(
                on: connection,
                """
                WITH gone AS (DELETE FROM \(unescaped: table) WHERE \(tag) = ANY(tags))
                SELECT pg_notify(\(channel), \(payload))
                """)
        }
    }

    /// Takes the advisory lock of `key`'s hash on the claims connection, without waiting. The lock
    /// lasts until ``release(_:)`` or until the connection ends: `duration` is not used.
    public func claim(_ key: String, for duration: Duration) async throws -> QueryStoreClaim {
        // Session locks are reentrant: a second claim of a key this store holds must lose here.
        // -1 while the lock is asked for.
        let isNew = held.withLock { held in
            guard held[key] == nil else { return false }
            held[key] = -1
            return true
        }
        guard isNew else { return .lost }
        do {
            let connection = try await locks.connection()
            let rows = try await connection.query(
                "SELECT pg_try_advisory_lock(hashtextextended(\(key), 0))", logger: logger)
            var won = false
            for try await granted in rows.decode(Bool.self) { won = granted }
            if won, Task.isCancelled {
                // Given up on (the cache's timeout) while the lock was granted: nobody would release it.
                try? await unlock(key, on: connection)
                won = false
            }
            if won {
                held.withLock { $0[key] = connection.id }
                return .won
            }
            held.withLock { _ = $0.removeValue(forKey: key) }
            if Task.isCancelled { throw CancellationError() }
            return .lost
        } catch {
            held.withLock { _ = $0.removeValue(forKey: key) }
            throw error
        }
    }

    /// Releases the advisory lock of `key`, when this store holds it.
    public func release(_ key: String) async throws {
        guard let holder = held.withLock({ $0.removeValue(forKey: key) }) else { return }
        // A lock connection made since the claim: the old one, and its lock, are gone.
        guard let connection = await locks.current, connection.id == holder else { return }
        try await unlock(key, on: connection)
    }

    private func unlock(_ key: String, on connection: PostgresConnection) async throws {
        try await run(on: connection, "SELECT pg_advisory_unlock(hashtextextended(\(key), 0))")
    }

    /// Runs `query` and reads its rows to the end: `query(_:logger:)` may return once the server
    /// described the rows, before the statement has run, and a claim released or a value set must
    /// have happened by the time the store says so.
    private func run(on connection: PostgresConnection, _ query: PostgresQuery) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// Calls `handler` with every invalidation another store made on this table; starts listening.
    public func observeInvalidations(_ handler: @escaping @Sendable (QueryStoreInvalidation) -> Void) {
        handlers.withLock { $0.append(handler) }
        listener.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.listen() }
        }
    }

    /// Whether the store listens for other processes' invalidations now.
    public var isListening: Bool { listening.withLock { $0 } }

    /// Listens on the channel until the store is closed, connecting again after a failure. After
    /// a reconnection, whatever was missed meanwhile is unknown: every cache drops its first tier.
    private func listen() async {
        var missed = false
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: ConnectionSlot.nextID(), logger: logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: channel) { notifications in
                    listening.withLock { $0 = true }
                    if missed { dispatch(.prefix("")) }
                    for try await notification in notifications {
                        guard let (sender, invalidation) = Notification.decode(notification.payload),
                            sender != origin
                        else { continue }
                        dispatch(invalidation)
                    }
                }
            } catch {
                logger.debug("SuspenseKitPostgres: listening failed", metadata: ["error": "\(error)"])
            }
            if listening.withLock({ $0 }) { missed = true }
            listening.withLock { $0 = false }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    private func dispatch(_ invalidation: QueryStoreInvalidation) {
        for handler in handlers.withLock({ $0 }) { handler(invalidation) }
    }
}

/// How an invalidation travels in a `NOTIFY` payload: the sender, its kind, what it names.
enum Notification {
    static func encode(_ invalidation: QueryStoreInvalidation) -> (kind: String, name: String) {
        switch invalidation {
        case .key(let key): ("key", key)
        case .prefix(let prefix): ("prefix", prefix)
        case .tag(let tag): ("tag", tag)
        }
    }

    static func decode(_ payload: String) -> (origin: String, invalidation: QueryStoreInvalidation)? {
        let parts = payload.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let name = String(parts[2])
        switch parts[1] {
        case "key": return (String(parts[0]), .key(name))
        case "prefix": return (String(parts[0]), .prefix(name))
        case "tag": return (String(parts[0]), .tag(name))
        default: return nil
        }
    }
}
