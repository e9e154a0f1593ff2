@testable import SuspenseKit

/// Generated component trees for the property test: a description of a tree (`Desc`), the
/// components that build it at run time (`Page`, `Gen`, `Keyless`, `_Dyn`), and the outcome of
/// every query.
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
        /// The ledger's number of the query run that failed, so that reading it can be counted;
        /// not part of the description the model compares.
        var run: Int? = nil
        var description: String { message }

        static func query(_ key: String, run: Int? = nil) -> Failure {
            Failure(message: "query \(key) failed", run: run)
        }
        static func stored(_ key: String) -> Failure { Failure(message: "stored \(key) failed") }
        static func thrown(by id: Int) -> Failure { Failure(message: "Gen#\(id) threw") }
        static func keyless(_ id: Int) -> Failure { Failure(message: "K#\(id) failed") }
    }

    /// A keyed query's value, with the ledger's number of the run that produced it (0 for a value
    /// stored before the render), so that the test sees which run each read was answered by.
    struct Fetched: Sendable {
        let text: String
        let run: Int
    }

    /// The value types of typed `Suspense`s: distinct Swift types, so that a keyless promise of
    /// one passes through typed boundaries of the other.
    enum ValueType: String, Sendable, Hashable, CaseIterable {
        case a = "A"
        case b = "B"
    }

    protocol GeneratedValue: Sendable {
        init(text: String)
        var text: String { get }
    }

    struct ValueA: GeneratedValue { let text: String }
    struct ValueB: GeneratedValue { let text: String }

    /// A typed `Suspense { (value: ValueA?) in … }` (or `ValueB`); its fallback never throws.
    struct TypedSpec: Sendable, Hashable {
        var id: Int
        var type: ValueType
        var content: [Desc]
        var fallback: [Desc]
    }

    /// A component reading the value of the nearest typed Suspense of `type` with
    /// `resolveValue(value) { … }` (or `throw Promise<Value>.pending(query:)` if
    /// `throwsPromise`): it throws a keyless `Promise` while that value is `nil`. The query waits
    /// `latency` steps, then returns `"T<id of that Suspense>"`, or fails if `fails`. Then it
    /// shows `K#<id> <value>`, followed by `children`.
    struct KeylessSpec: Sendable, Hashable {
        var id: Int
        var type: ValueType
        var fails: Bool
        var latency: Int
        var readsInInit: Bool
        var throwsPromise: Bool
        var children: [Desc]
    }

    /// The values of the typed Suspenses enclosing a place, by type: the nearest one of each.
    struct TypedScope: Sendable, Hashable {
        struct Bound: Sendable, Hashable {
            let suspense: Int
            let value: String?
        }

        var bounds: [ValueType: Bound] = [:]

        func binding(_ type: ValueType, suspense: Int, value: String?) -> TypedScope {
            var copy = self
            copy.bounds[type] = Bound(suspense: suspense, value: value)
            return copy
        }
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
        case typedSuspense(TypedSpec)
        case keyless(KeylessSpec)
    }

    /// One generated case: the root's children, what every key does, and the delivery order.
    struct Case: Sendable {
        var seed: UInt64
        var root: [Desc]
        var outcomes: [String: KeyOutcome]
        var deliveryOrder: RenderOptions.DeliveryOrder
        /// Keys whose queries other renders sharing this render's cache may run: their results
        /// can be in the cache already in this render's first pass. Empty for a render alone.
        var foreignKeys: Set<String> = []

        func value(of key: String) -> String {
            outcomes[key] == .storedValue ? "s:\(key)" : "v:\(key)"
        }

        func label(_ spec: GenSpec, values: [String]) -> String {
            values.isEmpty ? "Gen#\(spec.id)" : "Gen#\(spec.id) " + values.joined(separator: ",")
        }
    }

    /// What the components of one render share: the case and the query ledger (shared with the
    /// other renders when several share a cache, so that it counts runs across them).
    final class Environment: Sendable {
        let testCase: Case
        let ledger: ReliabilityQueryLedger
        /// Which of the renders sharing the ledger this is: the ledger counts the runs each starts.
        let render: Int

        init(_ testCase: Case, ledger: ReliabilityQueryLedger = ReliabilityQueryLedger(), render: Int = 0) {
            self.testCase = testCase
            self.ledger = ledger
            self.render = render
        }

        /// A cache holding the case's stored values and failures.
        func makeCache() -> QueryCache {
            let cache = QueryCache(failures: .keep)
            store(into: cache)
            return cache
        }

        func store(into cache: QueryCache) {
            for (key, outcome) in testCase.outcomes {
                switch outcome {
                case .storedValue: cache.store(Fetched(text: testCase.value(of: key), run: 0), for: key)
                case .storedFailure: cache.storeFailure(Failure.stored(key), for: key)
                case .success, .failure: break
                }
            }
        }

        func read(_ key: String) throws -> String {
            let outcome = testCase.outcomes[key] ?? .success(latency: 0)
            let value = testCase.value(of: key)
            let (ledger, render) = (ledger, render)
            do {
                let fetched: Fetched = try resolveValue(key: key) {
                    try await ledger.runNumbered(key, render: render) { run in
                        switch outcome {
                        case .success(let latency):
                            await ReliabilityHarness.wait(latency)
                            return Fetched(text: value, run: run)
                        case .failure(let latency):
                            await ReliabilityHarness.wait(latency)
                            throw Failure.query(key, run: run)
                        case .storedValue, .storedFailure:
                            // The cache answers these keys; reaching this is a resolver bug.
                            return Fetched(text: "query of a stored key ran", run: run)
                        }
                    }
                }
                ledger.answered(key, by: fetched.run)
                return fetched.text
            } catch let failure as Failure {
                if let run = failure.run { ledger.answered(key, by: run) }
                throw failure
            }
        }

        /// Reads the value of the nearest typed Suspense of `spec.type`, throwing a keyless
        /// promise while it is `nil`.
        func readTyped(_ spec: KeylessSpec, in scope: TypedScope) throws -> String {
            switch spec.type {
            case .a: return try readTyped(ValueA.self, spec, scope)
            case .b: return try readTyped(ValueB.self, spec, scope)
            }
        }

        private func readTyped<V: GeneratedValue>(_: V.Type, _ spec: KeylessSpec, _ scope: TypedScope) throws -> String
        {
            let bound = scope.bounds[spec.type]
            let ledger = ledger
            // The value names the Suspense the generator meant to receive it: one delivered to
            // another Suspense shows, or never reaches this component.
            let text = "T\(bound?.suspense ?? -1)"
            let query: @Sendable () async throws -> V = {
                try await ledger.runKeyless {
                    await ReliabilityHarness.wait(spec.latency)
                    if spec.fails { throw Failure.keyless(spec.id) }
                    return V(text: text)
                }
            }
            if spec.throwsPromise {
                guard let value = bound?.value else { throw Promise<V>.pending(query: query) }
                return value
            }
            return try resolveValue(bound?.value.map(V.init(text:)), query: query).text
        }
    }

    /// A query's latency: yields to the other tasks `steps` times (at least once, so that every
    /// generated query suspends and its component never gets its value in the first pass, as the
    /// reference model assumes); a large step count also sleeps a little, so some queries finish
    /// after a real delay. Never depends on timing for results.
    static func wait(_ steps: Int) async {
        for _ in 0..<max(1, steps % 64) {
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
            ForEach(children) { _Dyn(description: $0, environment: environment, scope: TypedScope()) }
        }
    }

    struct Gen: Component {
        let spec: GenSpec
        let environment: Environment
        let scope: TypedScope
        let values: [String]

        init(_ spec: GenSpec, environment: Environment, scope: TypedScope) throws {
            self.spec = spec
            self.environment = environment
            self.scope = scope
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
            ForEach(spec.children) { _Dyn(description: $0, environment: environment, scope: scope) }
        }
    }

    /// A component of the swiftui-suspense article's form: `init(value: V?) throws` calling
    /// `resolveValue(value) { … }`, built from the value its typed Suspense passed down.
    struct Keyless: Component {
        let spec: KeylessSpec
        let environment: Environment
        let scope: TypedScope
        let value: String?

        init(_ spec: KeylessSpec, environment: Environment, scope: TypedScope) throws {
            self.spec = spec
            self.environment = environment
            self.scope = scope
            value = spec.readsInInit ? try environment.readTyped(spec, in: scope) : nil
        }

        var body: some Component {
            get throws {
                let value = try self.value ?? environment.readTyped(spec, in: scope)
                return content(label: "K#\(spec.id) \(value)")
            }
        }

        @ComponentBuilder
        private func content(label: String) -> some Component {
            Text(label)
            ForEach(spec.children) { _Dyn(description: $0, environment: environment, scope: scope) }
        }
    }

    /// Type erasure for generated children: resolves the component its description stands for,
    /// built with the public primitives exactly as a builder would build it. Named with a leading
    /// underscore so that, like builder plumbing, it never appears in a path.
    struct _Dyn: Component {
        typealias Body = Never
        let description: Desc
        let environment: Environment
        /// The values of the enclosing typed Suspenses, as their content closures passed them.
        let scope: TypedScope

        static func _resolve(_ component: Self, in resolver: _Resolver) throws {
            let environment = component.environment
            let scope = component.scope
            func children(_ descriptions: [Desc], in scope: TypedScope = scope) -> some Component {
                ForEach(descriptions) { _Dyn(description: $0, environment: environment, scope: scope) }
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
                let deferred = ComponentBuilder.buildExpression(
                    try Gen(spec, environment: environment, scope: scope))
                try type(of: deferred)._resolve(deferred, in: resolver)
            case .keyless(let spec):
                let deferred = ComponentBuilder.buildExpression(
                    try Keyless(spec, environment: environment, scope: scope))
                try type(of: deferred)._resolve(deferred, in: resolver)
            case .typedSuspense(let spec):
                switch spec.type {
                case .a: try resolveTyped(ValueA.self, spec, environment, scope, in: resolver)
                case .b: try resolveTyped(ValueB.self, spec, environment, scope, in: resolver)
                }
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

        /// `Suspense { (value: V?) in … }`: its content sees the value; its fallback, standing
        /// outside it, sees the enclosing scope.
        private static func resolveTyped<V: GeneratedValue>(
            _: V.Type, _ spec: TypedSpec, _ environment: Environment, _ scope: TypedScope,
            in resolver: _Resolver
        ) throws {
            let suspense = Suspense { (value: V?) in
                ForEach(spec.content) {
                    _Dyn(
                        description: $0, environment: environment,
                        scope: scope.binding(spec.type, suspense: spec.id, value: value?.text))
                }
            } fallback: {
                ForEach(spec.fallback) { _Dyn(description: $0, environment: environment, scope: scope) }
            }
            try type(of: suspense)._resolve(suspense, in: resolver)
        }
    }
}
