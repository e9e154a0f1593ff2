/// An error that no ``ErrorBoundary`` caught: `render` throws it, naming the component path.
public struct RenderError: Error, CustomStringConvertible {
    /// The components and boundaries from the root to the component that threw,
    /// such as `["Page", "ErrorBoundary", "Suspense", "UserCard"]`.
    public let path: [String]
    /// The error the component threw.
    public let underlying: any Error

    public var description: String {
        path.isEmpty
            ? "uncaught error: \(underlying)"
            : "uncaught error in \(path.joined(separator: " > ")): \(underlying)"
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
    /// A render isolated to an actor nested deeper, at this component, than the actor's thread
    /// can hold; nonisolated renders move to large stacks instead.
    case tooDeepForCallerStack(component: String, depth: Int)

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
        case .tooDeepForCallerStack(let component, let depth):
            return "\(component) is nested \(depth) levels deep, more than a render isolated to an actor "
                + "may use of that actor's thread; render from a nonisolated context, where deep trees "
                + "run on large stacks up to RenderOptions.maxDepth"
        }
    }
}

/// An element or attribute name that cannot be written as HTML.
public struct InvalidMarkupError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, in a sentence.
    public let message: String

    public var description: String { message }
}
