import Foundation
import PostgresNIO
import SuspenseKit
import Testing

@testable import SuspenseKitPostgres

/// `PostgresQueryStore` against a real PostgreSQL server (started by ci.sh): caches with stores
/// of their own, each with its own connections, play the processes of a server farm.
@Suite(.timeLimit(.minutes(2)), .enabled(if: TestDatabase.isConfigured || TestDatabase.isCI))
struct PostgresQueryStoreTests {
    struct Reader: Component {
        let value: String
        init(_ key: String, tags: [String] = [], runs: Counter, gate: Counter? = nil) throws {
            value = try resolveValue(key: key, scope: .shared, tags: tags) {
                runs.increment()
                if let gate { try await waitUntil("the gate to open") { gate.value > 0 } }
                return "loaded \(key)"
            }
        }
        var body: some Component { Text(value) }
    }

    static func page(_ key: String, tags: [String] = [], runs: Counter, gate: Counter? = nil) -> some Component {
        Suspense {
            try Reader(key, tags: tags, runs: runs, gate: gate)
        } fallback: {
            Text("Loading…")
        }
    }

    /// `count` stores on one table, each with its own connections, prepared.
    static func stores(_ count: Int, table: String = TestDatabase.table()) async throws -> [PostgresQueryStore] {
        let configuration = try TestDatabase.configuration()
        let stores = (0..<count).map { _ in PostgresQueryStore(configuration: configuration, table: table) }
        for store in stores { try await store.prepare() }
        return stores
    }

    @Test func threeProcessesRacingOnOneColdKeyRunTheQueryOnce() async throws {
        let stores = try await Self.stores(3)
        let counting = stores.map(CountingStore.init)
        let caches = counting.map { QueryCache(store: $0) }
        for round in 0..<5 {
            let key = "cold/\(round)"
            let runs = Counter()
            let gate = Counter()
            let renders = caches.map { cache in
                Task { try await render(Self.page(key, runs: runs, gate: gate), as: .plain, cache: cache) }
            }
            // The query is held until the two processes that lost the claim wait on it.
            try await waitUntil("one process to run the key and two to wait") {
                runs.value == 1 && counting.filter { $0.claimsLost.value > 0 }.count == 2
            }
            gate.increment()
            for rendering in renders { #expect(try await rendering.value == "loaded \(key)") }
            #expect(runs.value == 1)
            for store in counting { store.claimsLost.reset() }
        }
        for store in stores { await store.close() }
    }

    @Test func anInvalidationInOneProcessReachesTheOthersFirstTier() async throws {
        let stores = try await Self.stores(3)
        let caches = stores.map { QueryCache(store: $0) }
        try await waitUntil("every store to listen") { stores.allSatisfy(\.isListening) }
        let runs = Counter()
        for cache in caches {
            for key in ["post/1", "post/2", "user/1"] {
                _ = try await render(
                    Self.page(key, tags: key == "user/1" ? ["users"] : [], runs: runs), as: .plain, cache: cache)
            }
        }
        // Each key ran once, in the first process; the others read it from the store.
        #expect(runs.value == 3)
        for cache in caches {
            #expect(cache.contains("post/1") && cache.contains("post/2") && cache.contains("user/1"))
        }

        caches[0].removeValue(for: "post/1")
        try await waitUntil("the others to drop post/1") {
            !caches[1].contains("post/1") && !caches[2].contains("post/1")
        }
        #expect(try await stores[1].value(for: "post/1", as: String.self) == nil)
        #expect(caches[1].contains("post/2"))

        caches[1].invalidate(tag: "users")
        try await waitUntil("the others to drop user/1") {
            !caches[0].contains("user/1") && !caches[2].contains("user/1")
        }

        caches[2].invalidate(prefix: "post/")
        try await waitUntil("the others to drop post/2") {
            !caches[0].contains("post/2") && !caches[1].contains("post/2")
        }
        #expect(try await stores[0].value(for: "post/2", as: String.self) == nil)

        // The next render runs the query again, once.
        _ = try await render(Self.page("post/2", runs: runs), as: .plain, cache: caches[1])
        #expect(runs.value == 4)
        for store in stores { await store.close() }
    }

    @Test func aStoreThatIsDownMakesRendersRunTheQuery() async throws {
        var configuration = try TestDatabase.configuration(port: TestDatabase.closedPort())
        configuration.options.connectTimeout = .seconds(30)
        let store = PostgresQueryStore(configuration: configuration, table: TestDatabase.table())
        let errors = StoreErrors()
        let cache = QueryCache(
            store: store, storeOptions: .init(timeout: .milliseconds(300), onError: { errors.record($0) }))
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(errors.operations == [.read])
        await store.close()
    }

    @Test func aStoreThatIsSlowMakesRendersRunTheQuery() async throws {
        let table = TestDatabase.table()
        let store = try await Self.stores(1, table: table)[0]
        // Another process holds the table: every read and write of the store waits.
        let other = try await TestDatabase.connect()
        try await other.query("BEGIN", logger: TestDatabase.logger)
        try await other.query("LOCK TABLE \(unescaped: table) IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
        let errors = StoreErrors()
        let cache = QueryCache(
            store: store, storeOptions: .init(timeout: .milliseconds(200), onError: { errors.record($0) }))
        let runs = Counter()
        #expect(try await render(Self.page("article/1", runs: runs), as: .plain, cache: cache) == "loaded article/1")
        #expect(runs.value == 1)
        #expect(errors.operations == [.read])
        #expect(errors.all.first?.error is QueryStoreTimeout)
        try await other.query("COMMIT", logger: TestDatabase.logger)
        try await other.close()
        await store.close()
    }

    @Test func aClaimHeldByAProcessThatHangsIsWaitedOnBoundedly() async throws {
        let store = try await Self.stores(1)[0]
        // Another process claimed the key and never sets its value.
        let other = try await TestDatabase.connect()
        try await other.query("SELECT pg_advisory_lock(hashtextextended('cold', 0))", logger: TestDatabase.logger)
        let errors = StoreErrors()
        let cache = QueryCache(
            store: store, storeOptions: .init(claimWait: .milliseconds(200), onError: { errors.record($0) }))
        let runs = Counter()
        #expect(try await render(Self.page("cold", runs: runs), as: .plain, cache: cache) == "loaded cold")
        #expect(runs.value == 1)
        #expect(errors.operations == [.wait])
        try await other.close()
        await store.close()
    }

    struct Article: Codable, Equatable {
        let id: Int
        let title: String
    }

    @Test func valuesRoundTripAndExpire() async throws {
        let store = try await Self.stores(1)[0]
        let article = Article(id: 1, title: "Ship it & see <what> happens")
        try await store.setValue(article, for: "article/1", lifetime: .seconds(60), tags: ["articles"])
        #expect(try await store.value(for: "article/1", as: Article.self) == article)
        try await store.setValue(article, for: "article/2", lifetime: .milliseconds(1), tags: [])
        try await waitUntil("article/2 to expire") { try await store.value(for: "article/2", as: Article.self) == nil }
        #expect(try await store.deleteExpired() == 1)
        try await store.invalidate(.tag("articles"))
        #expect(try await store.value(for: "article/1", as: Article.self) == nil)
        await store.close()
    }

    @Test func aClaimIsWonOnceUntilReleased() async throws {
        let stores = try await Self.stores(2)
        #expect(try await stores[0].claim("key", for: .seconds(5)) == .won)
        #expect(try await stores[0].claim("key", for: .seconds(5)) == .lost)
        #expect(try await stores[1].claim("key", for: .seconds(5)) == .lost)
        try await stores[0].release("key")
        #expect(try await stores[1].claim("key", for: .seconds(5)) == .won)
        // A process that dies loses its claims with its connection.
        await stores[1].close()
        try await waitUntil("the claim to end with its connection") {
            try await stores[0].claim("key", for: .seconds(5)) == .won
        }
        for store in stores { await store.close() }
    }
}

/// Run without a server, the suite above is skipped; under CI it must not be.
@Suite struct PostgresEnvironmentTests {
    @Test func underCITheServerIsConfigured() throws {
        guard TestDatabase.isCI else { return }
        _ = try TestDatabase.configuration()
    }
}
