public import SuspenseKit

/// The benchmarks' workloads, shared by `SuspenseBench` and the ordo-one/benchmark target.
public enum Workloads {
    /// Benchmark 1: the static tree in `format`.
    public static func staticTree(count: Int, as format: RenderFormat) async throws -> String {
        try await render(StaticList(count: count), as: format)
    }

    /// A static list of links, three tags a row (`--profile links`).
    public static func links(count: Int) async throws -> String {
        try await render(LinkList(count: count), as: .html)
    }

    /// Benchmark 10: the static tree rendered on the caller's actor (the main actor, for a
    /// command-line tool's top-level code), where `staticTree` renders on none.
    public static func staticTreeHere(
        count: Int, as format: RenderFormat, isolation: isolated (any Actor)? = #isolation
    ) async throws -> String {
        try await render(StaticList(count: count), as: format)
    }

    /// Benchmark 2: every item suspends on its own key inside one Suspense.
    public static func suspendingItems(count: Int) async throws -> String {
        try await render(SuspendingList(count: count), as: .html)
    }

    /// Benchmark 3: `count` siblings whose queries each take `delay`.
    public static func slowSiblings(count: Int, delay: Duration) async throws -> String {
        try await render(SlowList(count: count, delay: delay), as: .html)
    }

    /// Benchmark 6: `count` components reading `keys` keys (item `i` reads key `i % keys`), each
    /// query sleeping `delay`: the cost of real waiting, many readers per key.
    public static func sleepingKeys(count: Int, keys: Int, delay: Duration) async throws -> String {
        try await render(SleepingKeyList(count: count, keys: keys, delay: delay), as: .html)
    }

    /// Benchmark 4: `count` components sharing one key; returns the output and how many times the
    /// query ran.
    public static func sharedKey(count: Int) async throws -> (output: String, executions: Int) {
        let counter = ExecutionCounter()
        let output = try await render(SharedKeyList(count: count, counter: counter), as: .html)
        return (output, counter.value)
    }
}

extension Workloads {
    /// Benchmark 7: `count` boundaries, each resolving after the shell, rendered whole.
    public static func boundaries(count: Int) async throws -> String {
        try await render(StreamedBoundaries(count: count), as: .html)
    }

    /// Benchmark 7: the same, streamed out of order and collected.
    public static func streamedBoundaries(count: Int, swap: StreamOptions.Swap = .script) async throws -> String {
        try await renderStream(StreamedBoundaries(count: count), stream: StreamOptions(swap: swap)).collect()
    }

    /// Benchmark 7's page (`count` rows behind one Suspense), rendered whole.
    public static func page(count: Int) async throws -> String {
        try await render(StreamedPage(count: count), as: .html)
    }

    /// Benchmark 7's page, streamed out of order and collected.
    public static func streamedPage(count: Int) async throws -> String {
        try await renderStream(StreamedPage(count: count)).collect()
    }
}

extension Workloads {
    /// Benchmark 8: `count` items, each suspending once on its own key (`Task.yield()`).
    public static func yieldingItems(count: Int) async throws -> String {
        try await render(YieldingList(count: count), as: .html)
    }

    /// Benchmark 9: the eknkc/ssr-benchmark page, rendered whole.
    public static func table(_ data: [TableEntry]) async throws -> String {
        try await render(TablePage(data: data), as: .html)
    }

    /// Benchmark 9: the same page streamed out of order and collected.
    public static func streamedTable(_ data: [TableEntry]) async throws -> String {
        try await renderStream(TablePage(data: data)).collect()
    }
}
