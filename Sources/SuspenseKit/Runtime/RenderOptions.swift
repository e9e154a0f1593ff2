/// Settings of one render.
public struct RenderOptions: Sendable {
    /// The order in which query results are applied to the tree.
    public enum DeliveryOrder: Sendable {
        /// As each query finishes: the fastest, and what users see.
        case completion
        /// In the order the queries were discovered, whatever order they finish in, so that the
        /// sequence of frames is the same on every run.
        case discovery
    }

    /// How many times a component may suspend again after the query it waited on resolved
    /// before it fails with ``SuspenseError/stillSuspending(component:attempts:lastQuery:)``.
    public var maxResuspensions: Int
    /// The order in which query results are applied.
    public var deliveryOrder: DeliveryOrder
    /// How deep the tree may nest (components, elements and boundaries, counted from the root)
    /// before the component that goes deeper fails with
    /// ``SuspenseError/tooDeep(component:limit:)``, instead of overflowing the stack.
    ///
    /// Deep renders run on threads whose stacks hold the default of 100,000 levels with room to
    /// spare in ordinary builds; a component that keeps large values on the stack in `body`, or a
    /// sanitizer build, may need a lower limit.
    public var maxDepth: Int

    /// Creates options.
    /// - Parameters:
    ///   - maxResuspensions: The bound on re-suspensions of one component (default 32).
    ///   - deliveryOrder: The order in which query results are applied (default `.completion`).
    ///   - maxDepth: How deep the tree may nest (default 100,000).
    public init(maxResuspensions: Int = 32, deliveryOrder: DeliveryOrder = .completion, maxDepth: Int = 100_000) {
        self.maxResuspensions = maxResuspensions
        self.deliveryOrder = deliveryOrder
        self.maxDepth = maxDepth
    }
}
