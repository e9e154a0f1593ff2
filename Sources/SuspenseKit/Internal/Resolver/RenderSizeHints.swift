/// Capacity hints: how large the last render of each root component type was, so that the next
/// one reserves its node records and text buffer at once. A server renders the same page types
/// millions of times; growing a 100,000-node arena by doubling copied it about seventeen times
/// and touched fresh pages each time.
///
/// One small table for the process, keyed by the root's type, each entry two integers, read
/// once when a render starts and written once when it ends. A hint only reserves capacity: a
/// wrong one costs memory for one render, never correctness, and the table holds at most
/// `limit` types.
enum RenderSizeHints {
    struct Size: Sendable {
        var records: Int
        var bytes: Int
        /// How many results a render with an empty cache left stored in it (0 when its cache
        /// was not empty to begin with).
        var queries: Int = 0
        /// How many queries its components suspended on (the wait table's keys).
        var waits: Int = 0
        /// How many times its components suspended (the slot records).
        var slots: Int = 0
    }

    private static let table = Locked<[ObjectIdentifier: Size]>([:])
    private static let limit = 1_024

    static func size(of root: any Any.Type) -> Size? {
        table.withLock { $0[ObjectIdentifier(root)] }
    }

    static func record(_ size: Size, of root: any Any.Type) {
        table.withLock { table in
            if table.count >= limit, table[ObjectIdentifier(root)] == nil { table.removeAll(keepingCapacity: true) }
            table[ObjectIdentifier(root)] = size
        }
    }
}
