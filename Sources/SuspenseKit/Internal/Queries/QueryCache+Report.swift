extension QueryCache {
    /// Whether the run of `key` in flight was started by `prefetch`: what a render report calls
    /// a `prefetched` read. Asked only when a report is being collected.
    func isPrefetching(_ key: String) -> Bool {
        state.withLock { $0.running(key)?.isOwnedByCache ?? false }
    }
}
