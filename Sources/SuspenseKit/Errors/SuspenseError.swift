/// An error that no ``ErrorBoundary`` caught: `render` throws it, naming the component path.
public struct RenderError: Error, CustomStringConvertible {
    /// The components and boundaries from the root to the component that threw,
    /// such as `["Page", "ErrorBoundary", "Suspense", "UserCard"]`.
    public let path: [String]
    /// The error the component threw.
    public let underlying: any Error

    /// `uncaught error in <path>: <error>`; a ``PresentableError`` shows its title, message and
    /// recovery suggestion, any other error its own description.
    public var description: String {
        let error = describeError(underlying, suggestion: true)
        return path.isEmpty ? "uncaught error: \(error)" : "uncaught error in \(Self.shortened(path)): \(error)"
    }

    /// The path joined with ` > `; past 20 components, the first and last ten with a count of
    /// those left out between them, so that runaway recursion gives a readable message.
    static func shortened(_ path: [String]) -> String {
        guard path.count > 20 else { return path.joined(separator: " > ") }
        let left = path.count - 20
        return path.prefix(10).joined(separator: " > ") + " > … (\(left.formatted()) more) … > "
            + path.suffix(10).joined(separator: " > ")
    }
}

extension Int {
    /// The number with a comma between groups of three digits, as in `99,980`.
    fileprivate func formatted() -> String {
        let digits = String(magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}

/// Errors the resolver raises itself, routed like any other error to the nearest
/// ``ErrorBoundary`` above the component.
public enum SuspenseError: Error, CustomStringConvertible, Equatable {
    /// A component kept suspending after the queries it waited on had resolved.
    case stillSuspending(component: String, attempts: Int, lastQuery: String)
    /// A promise without a key was thrown where no typed ``Suspense`` can take its value.
    case keylessPromise(component: String, valueType: String)
    /// A component suspended with no ``Suspense`` above it on a query that never resolves.
    case rootSuspendedForever(queries: [String])
    /// The tree nested deeper than ``RenderOptions/maxDepth`` at this component.
    case tooDeep(component: String, limit: Int)
    /// A query threw a ``Promise`` instead of returning or failing; a query cannot suspend.
    case promiseThrownInQuery(query: String, promise: String)

    /// What went wrong, and how to fix it.
    public var description: String {
        switch self {
        case .stillSuspending(let component, let attempts, let lastQuery):
            return "\(component) suspended again after its queries resolved, \(attempts) times "
                + "(last query: \(lastQuery)); does its query key change on every evaluation?"
        case .keylessPromise(let component, let valueType):
            return "\(component) threw a \(valueType) without a key, and no typed Suspense above it "
                + "takes that value; use resolveValue(key:query:) so the result is cached by key"
        case .rootSuspendedForever(let queries):
            return "the root suspended with no Suspense above it on queries that never resolve: "
                + queries.joined(separator: ", ")
        case .tooDeep(let component, let limit):
            return "\(component) is nested more than \(limit) levels deep (RenderOptions.maxDepth); "
                + "does a component contain itself without end?"
        case .promiseThrownInQuery(let query, let promise):
            return "the query \(query) threw a \(promise); a query must return its value or throw an error, "
                + "not suspend (call resolveValue in a component, not in a query)"
        }
    }
}

/// Markup HTML cannot carry: an invalid element or attribute name, an attribute name given twice
/// in any letter case, or a void element with children.
public struct InvalidMarkupError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, in a sentence.
    public let message: String

    /// What went wrong, and how to fix it.
    public var description: String { message }
}
