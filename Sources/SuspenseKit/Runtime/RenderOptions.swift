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

    /// Creates options.
    /// - Parameters:
    ///   - maxResuspensions: The bound on re-suspensions of one component (default 32).
    ///   - deliveryOrder: The order in which query results are applied (default `.completion`).
    public init(maxResuspensions: Int = 32, deliveryOrder: DeliveryOrder = .completion) {
        self.maxResuspensions = maxResuspensions
        self.deliveryOrder = deliveryOrder
    }
}
