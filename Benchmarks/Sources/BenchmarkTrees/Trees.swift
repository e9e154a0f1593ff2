public import SuspenseKit
import Synchronization

/// The text of item `index`: every item needs escaping in HTML (`<`, `>`, `&`) and in `.tree`
/// (`"`).
@inline(__always)
public func itemText(_ index: Int) -> String {
    "item \(index): <b>&\"quoted\"</b>"
}

/// Benchmark 1 (and 5): one `<ul>` with `count` `<li>`, each holding one text.
public struct StaticList: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Element("ul") {
            ForEach(0..<count) { index in
                Element("li") { Text(itemText(index)) }
            }
        }
    }
}

/// A static list whose rows nest three tags (`<li>`, `<a>`, `<span>`), as a list of links does:
/// for `--profile links`, which shows what an element costs when the tag before it differs.
public struct LinkList: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Element("ul") {
            ForEach(0..<count) { index in
                Element("li") {
                    Element("a", attributes: ["href": "/items/\(index)"]) {
                        Element("span") { Text(itemText(index)) }
                    }
                }
            }
        }
    }
}

/// Benchmark 2: the same tree, but every item is its own component that suspends on its own key
/// with a query that resolves at once, all inside one `Suspense`.
public struct SuspendingList: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Suspense {
            Element("ul") {
                ForEach(0..<count) { index in
                    try SuspendingItem(index: index)
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

public struct SuspendingItem: Component {
    let text: String

    public init(index: Int) throws {
        text = try resolveValue(key: "item/\(index)") { itemText(index) }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}

/// Benchmark 3: `count` sibling components whose queries each sleep for `delay`.
public struct SlowList: Component {
    public let count: Int
    public let delay: Duration
    public init(count: Int, delay: Duration) {
        self.count = count
        self.delay = delay
    }

    public var body: some Component {
        Suspense {
            Element("ul") {
                ForEach(0..<count) { index in
                    try SlowItem(index: index, delay: delay)
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

public struct SlowItem: Component {
    let text: String

    public init(index: Int, delay: Duration) throws {
        text = try resolveValue(key: "slow/\(index)") {
            try await Task.sleep(for: delay)
            return itemText(index)
        }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}

/// Counts how many times a query ran.
public final class ExecutionCounter: Sendable {
    private let count = Atomic<Int>(0)
    public init() {}
    public func increment() { count.add(1, ordering: .relaxed) }
    public var value: Int { count.load(ordering: .relaxed) }
}

/// The text every component of benchmark 4 shows.
public let sharedText = "shared: <b>&\"quoted\"</b>"

/// Benchmark 4: `count` components that all read one key; its query must run once.
public struct SharedKeyList: Component {
    public let count: Int
    public let counter: ExecutionCounter
    public init(count: Int, counter: ExecutionCounter) {
        self.count = count
        self.counter = counter
    }

    public var body: some Component {
        Suspense {
            Element("ul") {
                ForEach(0..<count) { _ in
                    try SharedItem(counter: counter)
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

public struct SharedItem: Component {
    let text: String

    public init(counter: ExecutionCounter) throws {
        text = try resolveValue(key: "shared") {
            counter.increment()
            return sharedText
        }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}

/// Benchmark 6: `count` components on `keys` keys whose queries really suspend (`Task.sleep`).
public struct SleepingKeyList: Component {
    public let count: Int
    public let keys: Int
    public let delay: Duration
    public init(count: Int, keys: Int, delay: Duration) {
        self.count = count
        self.keys = keys
        self.delay = delay
    }

    public var body: some Component {
        Suspense {
            Element("ul") {
                ForEach(0..<count) { index in
                    try SleepingKeyItem(key: index % keys, delay: delay)
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

public struct SleepingKeyItem: Component {
    let text: String

    public init(key: Int, delay: Duration) throws {
        text = try resolveValue(key: "sleeping/\(key)") {
            try await Task.sleep(for: delay)
            return itemText(key)
        }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}

/// Benchmark 7: `count` boundaries in one `<ul>`, each a `Suspense` around an item whose query
/// answers after one yield, so that a stream sends every item as a swap of its own.
public struct StreamedBoundaries: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Element("ul") {
            ForEach(0..<count) { index in
                Suspense {
                    try YieldingItem(index: index)
                } fallback: {
                    Element("li") { Text("…") }
                }
            }
        }
    }
}

/// Benchmark 7's page: `count` rows behind one `Suspense`, each row's text from one query that
/// answers after one yield (a page that streams its shell and then one swap).
public struct StreamedPage: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Element("main") {
            Element("h1") { Text("Rows") }
            Suspense {
                try YieldingTable(count: count)
            } fallback: {
                Text("Loading…")
            }
        }
    }
}

public struct YieldingTable: Component {
    let rows: [String]

    public init(count: Int) throws {
        rows = try resolveValue(key: "rows/\(count)") {
            await Task.yield()
            return (0..<count).map(itemText)
        }
    }

    public var body: some Component {
        Element("ul") {
            ForEach(rows) { row in
                Element("li") { Text(row) }
            }
        }
    }
}

public struct YieldingItem: Component {
    let text: String

    public init(index: Int) throws {
        text = try resolveValue(key: "yield/\(index)") {
            await Task.yield()
            return itemText(index)
        }
    }

    public var body: some Component {
        Element("li") { Text(text) }
    }
}
