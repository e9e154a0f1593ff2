@testable import SuspenseKit

/// Generated component trees for the property test: a description of a tree (`Desc`), the
/// components that build it at run time (`Page`, `Gen`, `_Dyn`), and the outcome of every query.
enum ReliabilityHarness {
    /// How a key's query ends, or what the cache holds for it before the render starts.
    enum KeyOutcome: Sendable, Hashable {
        /// The query returns `"v:<key>"` after `latency` steps.
        case success(latency: Int)
        /// The query throws after `latency` steps.
        case failure(latency: Int)
        /// The cache holds `"s:<key>"` before the render: the query never runs.
        case storedValue
        /// The cache holds a failure before the render: the query never runs.
        case storedFailure

        var isFailure: Bool {
            switch self {
            case .failure, .storedFailure: return true
            case .success, .storedValue: return false
            }
        }

        var isStored: Bool {
            switch self {
            case .storedValue, .storedFailure: return true
            case .success, .failure: return false
            }
        }
    }

    /// The errors of generated cases; their descriptions are unique per key or component.
    struct Failure: Error, CustomStringConvertible, Hashable {
        let message: String
        var description: String { message }

        static func query(_ key: String) -> Failure { Failure(message: "query \(key) failed") }
        static func stored(_ key: String) -> Failure { Failure(message: "stored \(key) failed") }
        static func thrown(by id: Int) -> Failure { Failure(message: "Gen#\(id) threw") }
    }

    /// A generated user component: reads `keys` in order with `resolveValue(key:query:)` (in its
    /// initializer or in `body`), then throws if `throwsAfterReading`, else shows a text naming
    /// the values it read, followed by `children`.
    struct GenSpec: Sendable, Hashable {
        var id: Int
        var keys: [String]
        var readsInInit: Bool
        var throwsAfterReading: Bool
        var children: [Desc]
    }

    indirect enum Desc: Sendable, Hashable {
        case text(String)
        case element(tag: String, attributes: [Attribute], children: [Desc])
        case gen(GenSpec)
        case suspense(content: [Desc], fallback: [Desc])
        /// The fallback shows `Text("caught: <error>")`, then `fallback`.
        case errorBoundary(content: [Desc], fallback: [Desc])
    }

    /// One generated case: the root's children, what every key does, and the delivery order.
    struct Case: Sendable {
        var seed: UInt64
        var root: [Desc]
        var outcomes: [String: KeyOutcome]
        var deliveryOrder: RenderOptions.DeliveryOrder

        func value(of key: String) -> String {
            outcomes[key] == .storedValue ? "s:\(key)" : "v:\(key)"
        }

        func label(_ spec: GenSpec, values: [String]) -> String {
            values.isEmpty ? "Gen#\(spec.id)" : "Gen#\(spec.id) " + values.joined(separator: ",")
        }
    }

    /// What the components of one render share: the case and the query ledger.
    final class Environment: Sendable {
        let testCase: Case
        let ledger = ReliabilityQueryLedger()

        init(_ testCase: Case) {
            self.testCase = testCase
        }

        /// A cache holding the case's stored values and failures.
        func makeCache() -> QueryCache {
            let cache = QueryCache()
            for (key, outcome) in testCase.outcomes {
                switch outcome {
                case .storedValue: cache.store(testCase.value(of: key), for: key)
                case .storedFailure: cache.storeFailure(Failure.stored(key), for: key)
                case .success, .failure: break
                }
            }
            return cache
        }

        func read(_ key: String) throws -> String {
            let outcome = testCase.outcomes[key] ?? .success(latency: 0)
            let value = testCase.value(of: key)
            let ledger = ledger
            return try resolveValue(key: key) {
                try await ledger.run(key) {
                    switch outcome {
                    case .success(let latency):
                        await ReliabilityHarness.wait(latency)
                        return value
                    case .failure(let latency):
                        await ReliabilityHarness.wait(latency)
                        throw Failure.query(key)
                    case .storedValue, .storedFailure:
                        // The cache answers these keys; reaching this is a resolver bug.
                        return "query of a stored key ran"
                    }
                }
            }
        }
    }

    /// A query's latency: yields to the other tasks `steps` times; a large step count also sleeps
    /// a little, so some queries finish after a real delay. Never depends on timing for results.
    static func wait(_ steps: Int) async {
        for _ in 0..<steps % 64 {
            await Task.yield()
        }
        if steps >= 64 {
            try? await Task.sleep(for: .microseconds(200 * (steps / 64)))
        }
    }

    // MARK: Components

    struct Page: Component {
        let children: [Desc]
        let environment: Environment

        var body: some Component {
            ForEach(children) { _Dyn(description: $0, environment: environment) }
        }
    }

    struct Gen: Component {
        let spec: GenSpec
        let environment: Environment
        let values: [String]

        init(_ spec: GenSpec, environment: Environment) throws {
            self.spec = spec
            self.environment = environment
            if spec.readsInInit {
                values = try spec.keys.map(environment.read)
                if spec.throwsAfterReading { throw Failure.thrown(by: spec.id) }
            } else {
                values = []
            }
        }

        var body: some Component {
            get throws {
                var values = self.values
                if !spec.readsInInit {
                    values = try spec.keys.map(environment.read)
                    if spec.throwsAfterReading { throw Failure.thrown(by: spec.id) }
                }
                return content(label: environment.testCase.label(spec, values: values))
            }
        }

        @ComponentBuilder
        private func content(label: String) -> some Component {
            Text(label)
            ForEach(spec.children) { _Dyn(description: $0, environment: environment) }
        }
    }

    /// Type erasure for generated children: resolves the component its description stands for,
    /// built with the public primitives exactly as a builder would build it. Named with a leading
    /// underscore so that, like builder plumbing, it never appears in a path.
    struct _Dyn: Component {
        typealias Body = Never
        let description: Desc
        let environment: Environment

        static func _resolve(_ component: Self, in resolver: _Resolver) throws {
            let environment = component.environment
            func children(_ descriptions: [Desc]) -> some Component {
                ForEach(descriptions) { _Dyn(description: $0, environment: environment) }
            }
            switch component.description {
            case .text(let text):
                try Text._resolve(Text(text), in: resolver)
            case .element(let tag, let attributes, let descriptions):
                let element = Element(tag, attributes: attributes) { children(descriptions) }
                try type(of: element)._resolve(element, in: resolver)
            case .gen(let spec):
                // What a builder makes of the line `try Gen(spec)`: the initializer runs later,
                // inside the resolver, so that a suspension or error is located at `Gen`.
                let deferred = ComponentBuilder.buildExpression(try Gen(spec, environment: environment))
                try type(of: deferred)._resolve(deferred, in: resolver)
            case .suspense(let content, let fallback):
                let suspense = Suspense {
                    children(content)
                } fallback: {
                    children(fallback)
                }
                try type(of: suspense)._resolve(suspense, in: resolver)
            case .errorBoundary(let content, let fallback):
                let boundary = ErrorBoundary {
                    children(content)
                } fallback: { error in
                    Text("caught: \(error)")
                    children(fallback)
                }
                try type(of: boundary)._resolve(boundary, in: resolver)
            }
        }
    }
}
