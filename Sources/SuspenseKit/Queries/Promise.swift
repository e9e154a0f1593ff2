/// Thrown by a component to suspend it until a query resolves.
///
/// The nearest ``Suspense`` above the component shows its fallback and runs the query together
/// with every other query discovered under it. Prefer ``resolveValue(key:query:)``, which
/// throws a keyed promise for you and reads the result back from the render's ``QueryCache``.
public struct Promise<Value: Sendable>: Error {
    /// The cache key of the query, or `nil` for a promise whose value only a typed ``Suspense``
    /// can deliver.
    public let key: String?
    let query: @Sendable () async throws -> Value
    /// How `query` is tried again when it fails, for a promise thrown by
    /// ``resolveValue(key:retry:query:)``: a stubbed outcome standing for the query is tried
    /// again the same way (`runQuery`).
    var retry: RetryRun?

    init(key: String?, query: @escaping @Sendable () async throws -> Value) {
        self.key = key
        self.query = query
    }

    /// A promise without a key, as in `throw Promise<User>.pending(query: { try await getUser() })`.
    ///
    /// Its value reaches the component only through a typed `Suspense { (user: User?) in … }`.
    public static func pending(query: @escaping @Sendable () async throws -> Value) -> Promise {
        RenderScope.current?.collector?.promiseMade("Promise<\(Value.self)>")
        return Promise(key: nil, query: query)
    }

    /// A promise whose result is stored in the render's ``QueryCache`` under `key`.
    public static func pending(key: String, query: @escaping @Sendable () async throws -> Value) -> Promise {
        // A render collecting diagnostics checks that the component lets it reach a Suspense.
        RenderScope.current?.collector?.promiseMade(key)
        return Promise(key: key, query: query)
    }
}

extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
    /// What the promise waits for and, since a promise that reaches your code escaped the
    /// resolver, how to let SuspenseKit handle it:
    /// `Promise<User> for key "user/1": a component suspended outside a render, or …`.
    public var description: String {
        let what = key.map { "Promise<\(Value.self)> for key \"\($0)\"" } ?? "Promise<\(Value.self)> without a key"
        return what + ": a component suspended outside a render, or its Promise was caught (try? / catch). "
            + "Let it propagate to a Suspense, and make the component inside SuspenseKit's render(…), "
            + "as the root or in a body."
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// Lets the resolver catch any `Promise<Value>` without knowing `Value`.
protocol AnyPromise: Error {
    var key: String? { get }
    static var valueType: any Any.Type { get }
    static var valueTypeName: String { get }
    var retry: RetryRun? { get }
    func run() async throws -> any Sendable
}

extension AnyPromise {
    var valueType: any Any.Type { Self.valueType }
    var valueTypeName: String { Self.valueTypeName }
}

extension Promise: AnyPromise {
    static var valueType: any Any.Type { Value.self }
    static var valueTypeName: String { "Promise<\(Value.self)>" }
    func run() async throws -> any Sendable { try await query() }
}

/// A promise a component threw, as the resolver keeps it: its key and type, read once, and the
/// thrown error itself, looked at as a promise only when its query is run (`promise`). Opening
/// the error as `any AnyPromise` on every suspension boxed the promise anew (an allocation per
/// suspended component: a promise is larger than an existential's inline buffer).
struct ThrownPromise {
    let key: String?
    let type: any AnyPromise.Type
    private let error: any Error

    init(key: String?, type: any AnyPromise.Type, error: any Error) {
        self.key = key
        self.type = type
        self.error = error
    }

    init(_ promise: any AnyPromise) {
        self.init(key: promise.key, type: Swift.type(of: promise), error: promise)
    }

    var valueType: any Any.Type { type.valueType }
    var valueTypeName: String { type.valueTypeName }

    /// The promise, to run its query (or read its retry policy).
    var promise: any AnyPromise {
        // A `ThrownPromise` is made only from a promise (`PromiseTypes`, `init(_:)`).
        error as! any AnyPromise
    }
}

/// The promise types a render met, by the identity of their type: a thrown promise is known by
/// its dynamic type and cast to that concrete type, so the suspending path makes no existential
/// cast (a cast to `any AnyPromise` searches the runtime's conformance cache on every throw).
struct PromiseTypes {
    private var known: [(id: ObjectIdentifier, type: any AnyPromise.Type)] = []
    /// A render rarely throws more than a few promise types; past this many the rest are cast.
    private static let limit = 8

    /// `error` as a promise, or nil for any other error.
    mutating func promise(in error: any Error) -> ThrownPromise? {
        let id = ObjectIdentifier(type(of: error))
        for entry in known where entry.id == id {
            if let promise = Self.open(error, as: entry.type) { return promise }
            break  // never expected: the cast below decides
        }
        guard let promise = error as? any AnyPromise else { return nil }
        if known.count < Self.limit { known.append((id, type(of: promise))) }
        return ThrownPromise(key: promise.key, type: type(of: promise), error: error)
    }

    /// `error` read as the promise type `P`, opened from a known metatype: its metadata and
    /// conformance come with the metatype, so the cast looks nothing up (a method of `Promise`
    /// rebuilt `Promise<Value>`'s metadata through the runtime's cache on every call). The
    /// promise is read where it is, not boxed as an `any AnyPromise`.
    private static func open<P: AnyPromise>(_ error: any Error, as type: P.Type) -> ThrownPromise? {
        // A pattern, not `as? P`: no `P?` to make, whose metadata was looked up on every call.
        switch error {
        case let promise as P: return ThrownPromise(key: promise.key, type: type, error: error)
        default: return nil
        }
    }
}
