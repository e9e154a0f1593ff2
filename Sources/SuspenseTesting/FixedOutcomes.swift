public import SuspenseKit

/// Fixed outcomes for queries, by key, so that a test renders loading, loaded, empty and failed
/// states without network and without sleeping.
///
/// ```swift
/// let outcomes: FixedOutcomes = [
///     "user/1": .value(User(name: "Ann")),
///     "user/2": .failure(NotFound()),
///     "feed": .pending,
/// ]
/// ```
///
/// Each outcome replaces the query's closure and is delivered through the normal query path
/// (see `QueryCache.stub(_:for:)`): the fallback is rendered first, then the
/// value or failure, exactly as with a real query. A failure for a key read with
/// `resolveValue(key:retry:query:)` is tried again under its policy, as the query would be: it
/// fails every attempt, waiting the backoff on the render's clock (advance a ``TestClock`` past
/// it). A keyless promise is matched by its label in the `.tree` format, such as
/// `"Promise<User>"`. Queries without an outcome run for real.
///
/// Named so as not to be read as `QueryOutcome`, the outcome of one query, which
/// it holds one of per key.
public struct FixedOutcomes: Sendable, ExpressibleByDictionaryLiteral {
    /// The outcomes, in the order given.
    let outcomes: [(key: String, outcome: QueryOutcome)]

    /// Creates outcomes from a dictionary.
    public init(_ outcomes: [String: QueryOutcome]) {
        self.outcomes = outcomes.sorted { $0.key < $1.key }.map { (key: $0.key, outcome: $0.value) }
    }

    /// Creates outcomes from a literal such as `["user/1": .value(ann), "feed": .pending]`.
    public init(dictionaryLiteral elements: (String, QueryOutcome)...) {
        self.outcomes = elements.map { (key: $0.0, outcome: $0.1) }
    }

    /// A new cache in which every outcome is stubbed, for rendering by hand.
    public func makeCache() -> QueryCache {
        let cache = QueryCache()
        for (key, outcome) in outcomes {
            cache.stub(outcome, for: key)
        }
        return cache
    }
}

extension FixedOutcomes {
    /// Throws when an outcome was never used by a query of a render with `cache`, or was read as
    /// another type: a typo in a key would otherwise run the real query, and a wrong type would
    /// be recorded into a golden file as an error.
    func check(against cache: QueryCache) throws(OutcomeMistake) {
        if let mismatch = cache.stubTypeMismatches.first {
            throw .wrongType(mismatch)
        }
        let asked = cache.askedQueries
        let unused = outcomes.map(\.key).filter { !asked.contains($0) }
        if !unused.isEmpty {
            throw .neverAsked(unused, asked: asked.sorted())
        }
    }
}

/// Fixed outcomes that do not fit the queries of the render.
enum OutcomeMistake: Error, CustomStringConvertible {
    case neverAsked([String], asked: [String])
    case wrongType(QueryTypeMismatch)

    var description: String {
        switch self {
        case .neverAsked(let keys, let asked):
            let list = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            let askedList = asked.isEmpty ? "none" : asked.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no query asked for the outcome\(keys.count == 1 ? "" : "s") \(list); "
                + "the queries asked for: \(askedList)"
        case .wrongType(let mismatch):
            return "the outcome for \"\(mismatch.key)\" is a \(mismatch.found), "
                + "but the component reads it as \(mismatch.expected)"
        }
    }
}
