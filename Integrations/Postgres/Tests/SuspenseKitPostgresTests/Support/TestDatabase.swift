import Foundation
import Logging
import PostgresNIO
import SuspenseKit
import Synchronization

@testable import SuspenseKitPostgres

/// The server `ci.sh` started, named by SUSPENSEKIT_PG_HOST, _PORT, _USER and _DATABASE.
enum TestDatabase {
    static let environment = ProcessInfo.processInfo.environment

    /// Under CI every test of the suite runs: without a server they fail, loudly.
    static var isCI: Bool { environment["CI"] == "true" }

    static var isConfigured: Bool { environment["SUSPENSEKIT_PG_HOST"] != nil }

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "no PostgreSQL server: run the tests through Integrations/Postgres/ci.sh, which starts one "
                + "and sets SUSPENSEKIT_PG_HOST, SUSPENSEKIT_PG_PORT, SUSPENSEKIT_PG_USER and SUSPENSEKIT_PG_DATABASE"
        }
    }

    static func configuration(port: Int? = nil) throws -> PostgresConnection.Configuration {
        guard let host = environment["SUSPENSEKIT_PG_HOST"],
            let serverPort = environment["SUSPENSEKIT_PG_PORT"].flatMap(Int.init),
            let user = environment["SUSPENSEKIT_PG_USER"],
            let database = environment["SUSPENSEKIT_PG_DATABASE"]
        else { throw NotConfigured() }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port ?? serverPort, username: user, password: nil, database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// A table of its own for each test: tests run side by side on one database.
    static func table() -> String {
        "store_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    static let logger = Logger(label: "SuspenseKitPostgresTests")

    /// A connection of the test's own, playing another process.
    static func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: configuration(), id: 0, logger: logger)
    }

    /// A port on 127.0.0.1 nothing listens on.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
    func reset() { count.store(0, ordering: .relaxed) }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` until it holds; fails after `seconds` instead of hanging.
func waitUntil(_ what: String, seconds: Double = 30, _ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try await !condition() {
        if ContinuousClock.now > deadline { throw Timeout(what: what) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A store that counts the claims it lost, around a real one.
final class CountingStore: QueryStore {
    let base: PostgresQueryStore
    let claimsLost = Counter()

    init(_ base: PostgresQueryStore) { self.base = base }

    func value<Value: Decodable & Sendable>(for key: String, as type: Value.Type) async throws -> Value? {
        try await base.value(for: key, as: type)
    }
    func setValue<Value: Encodable & Sendable>(_ value: Value, for key: String, lifetime: Duration, tags: [String])
        async throws
    {
        try await base.setValue(value, for: key, lifetime: lifetime, tags: tags)
    }
    func invalidate(_ invalidation: QueryStoreInvalidation) async throws { try await base.invalidate(invalidation) }
    func claim(_ key: String, for duration: Duration) async throws -> QueryStoreClaim {
        let claim = try await base.claim(key, for: duration)
        if claim == .lost { claimsLost.increment() }
        return claim
    }
    func release(_ key: String) async throws { try await base.release(key) }
    func observeInvalidations(_ handler: @escaping @Sendable (QueryStoreInvalidation) -> Void) {
        base.observeInvalidations(handler)
    }
}

/// Collects what a cache reports through `StoreOptions.onError`.
final class StoreErrors: Sendable {
    private let failures = Mutex<[QueryStoreFailure]>([])
    var all: [QueryStoreFailure] { failures.withLock { $0 } }
    var operations: [QueryStoreFailure.Operation] { all.map(\.operation) }
    func record(_ failure: QueryStoreFailure) { failures.withLock { $0.append(failure) } }
}
