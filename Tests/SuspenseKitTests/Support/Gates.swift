import Testing

@testable import SuspenseKit

/// Queries that answer only when the test opens their gate, so that the order in which boundaries
/// resolve is the test's, not the scheduler's. Counts runs and cancellations.
final class Gates: Sendable {
    private let opened = Locked(Set<String>())
    let cancellations = Counter()
    let runs = Counter()

    func open(_ key: String) { opened.withLock { _ = $0.insert(key) } }
    func isOpen(_ key: String) -> Bool { opened.withLock { $0.contains(key) } }

    func value(_ key: String, fails: Bool = false) async throws -> String {
        runs.increment()
        do {
            // A gate the test never opens fails the query after `waitUntil`'s limit instead of hanging.
            try await waitUntil("the gate of \(key) to open") { isOpen(key) }
        } catch is CancellationError {
            cancellations.increment()
            throw CancellationError()
        }
        if fails { throw TestFailure("\(key) failed") }
        return "\(key) loaded"
    }
}

/// Shows the value of `key` once its gate opens.
struct Gated: Component {
    let value: String
    init(_ key: String, gates: Gates, fails: Bool = false) throws {
        value = try resolveValue(key: key) { try await gates.value(key, fails: fails) }
    }
    var body: some Component { Element("p") { Text(value) } }
}

/// A card that loads `key` and then shows a nested Suspense that loads `inner`.
struct GatedWithNested: Component {
    let value: String
    let inner: String
    let gates: Gates
    init(_ key: String, inner: String, gates: Gates) throws {
        value = try resolveValue(key: key) { try await gates.value(key) }
        self.inner = inner
        self.gates = gates
    }
    var body: some Component {
        Element("section") {
            Element("h2") { Text(value) }
            Suspense {
                try Gated(inner, gates: gates)
            } fallback: {
                Text("inner loading")
            }
        }
    }
}
