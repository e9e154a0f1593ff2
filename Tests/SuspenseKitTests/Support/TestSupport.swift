import Foundation
import Synchronization
import Testing

@testable import SuspenseKit

/// A thread-safe counter, for counting query executions and component evaluations. Atomic, not
/// `Mutex`: the thread sanitizer cannot see `Mutex`'s futex waits on Linux.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    @discardableResult
    func increment() -> Int {
        count.add(1, ordering: .sequentiallyConsistent).newValue
    }

    @discardableResult
    func decrement() -> Int {
        count.subtract(1, ordering: .sequentiallyConsistent).newValue
    }

    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

/// Records strings in order, from any task.
final class Log: Sendable {
    private let entries = Locked([String]())

    init() {}

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
    let what: String
    var description: String { "deadline exceeded waiting for \(what)" }
}

/// Waits until `condition` holds, polling; fails instead of hanging after `seconds` (150 by
/// default, within the suites' three-minute limit: the suite runs its tests in parallel on two
/// cores, and under a sanitizer on a slower machine the long renders of other tests have held
/// both of the cooperative pool's threads for over a minute).
func waitUntil(
    _ what: String,
    seconds: Double = 150,
    _ condition: @Sendable () -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { throw DeadlineExceeded(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

struct TestFailure: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Renders `component` as a `.tree`.
func tree<C: Component>(_ component: C, cache: QueryCache = QueryCache()) async throws -> String {
    try await render(component, as: .tree, cache: cache)
}

/// Renders `component` as HTML.
func html<C: Component>(_ component: C, cache: QueryCache = QueryCache()) async throws -> String {
    try await render(component, as: .html, cache: cache)
}

/// Renders `component` and returns the ``RenderError`` it throws.
func renderError<C: Component>(_ component: C, cache: QueryCache = QueryCache()) async throws -> RenderError {
    do {
        let output = try await render(component, as: .tree, cache: cache)
        throw TestFailure("expected a RenderError, got output:\n\(output)")
    } catch let error as RenderError {
        return error
    }
}

/// A component that reads one key and shows its value; counts its evaluations.
struct Loaded: Component {
    let value: String
    init(_ key: String, value: String? = nil, runs: Counter? = nil, evaluations: Counter? = nil) throws {
        evaluations?.increment()
        self.value = try resolveValue(key: key) {
            runs?.increment()
            await Task.yield()
            return value ?? key
        }
    }
    var body: some Component { Text(value) }
}

/// A component whose query fails with `TestFailure(message)`, or with `error`.
struct Failing: Component {
    init(_ key: String, message: String) throws {
        try self.init(key, throwing: TestFailure(message))
    }
    init(_ key: String, throwing error: any Error) throws {
        let _: String = try resolveValue(key: key) {
            await Task.yield()
            throw error
        }
    }
    var body: some Component { Text("never shown") }
}

/// A component whose initializer throws `error`.
struct Throwing: Component {
    init(_ error: any Error) throws { throw error }
    var body: some Component { Text("never shown") }
}

/// A component whose initializer throws `TestFailure(message)`.
struct Thrower: Component {
    init(_ message: String) throws { throw TestFailure(message) }
    var body: some Component { Text("never shown") }
}
