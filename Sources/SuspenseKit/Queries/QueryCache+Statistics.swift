extension QueryCache {
    /// What a cache counted since it was made: enough to size it (its hit rate, how often it
    /// evicts), cheap enough to leave on.
    public struct Statistics: Sendable, Equatable {
        /// Reads that found a stored value or failure. A read of a key its render started and
        /// is still waiting on suspends on that run and is not counted.
        public var hits: Int
        /// Reads that found nothing and started the query.
        public var misses: Int
        /// Renders that joined a run another render had started, instead of running it again.
        public var coalesced: Int
        /// Results evicted to stay within the capacity.
        public var evictions: Int
        /// Results freed because their lifetime had passed.
        public var expirations: Int
        /// Results stored now.
        public var entries: Int
        /// Refreshes of stale values started in the background (with `freshFor:staleFor:`).
        /// A stale value served counts as a hit.
        public var backgroundRefreshes: Int
        /// Background refreshes that failed (the stale value was kept).
        public var refreshFailures: Int
        /// About how many bytes the stored results take: for each, its key's UTF-8 bytes, a fixed
        /// ``entryOverhead`` for the table's bookkeeping, and its value's size: the UTF-8 bytes of
        /// a `String`, the count of a `[UInt8]`, else the inline size of its type (what a class
        /// or an array refers to is not counted). A failure counts its error's inline size.
        /// Kept up to date as results come and go: reading it walks nothing.
        public var approximateBytes: Int
    }

    /// What ``Statistics/approximateBytes`` counts for each result besides its key and value:
    /// the table's index word, key, result cell and recency links.
    public static let entryOverhead =
        MemoryLayout<UInt64>.stride * 2 + MemoryLayout<String>.stride
        + MemoryLayout<Cell?>.stride + MemoryLayout<Int>.stride * 2

    /// What the cache counted since it was made, and how many results it holds now.
    public var statistics: Statistics {
        let deliveredHits = deliveredHitCount
        return state.withLock { state in
            Statistics(
                hits: state.hits + deliveredHits, misses: state.misses, coalesced: state.coalesced,
                evictions: state.evictions, expirations: state.expirations, entries: state.storedCount,
                backgroundRefreshes: state.backgroundRefreshes, refreshFailures: state.refreshFailures,
                approximateBytes: state.bytes)
        }
    }
}
