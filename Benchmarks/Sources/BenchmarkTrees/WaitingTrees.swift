public import SuspenseKit

/// Benchmark 8: `count` items in one `<ul>` inside one `Suspense`, each its own component whose
/// query suspends once (`Task.yield()`) before it answers: the path a real database or network
/// query takes, where every component is made again after its result arrives.
public struct YieldingList: Component {
    public let count: Int
    public init(count: Int) { self.count = count }

    public var body: some Component {
        Suspense {
            Element("ul") {
                ForEach(0..<count) { index in
                    try YieldingItem(index: index)
                }
            }
        } fallback: {
            Text("Loading…")
        }
    }
}

/// Benchmark 9's data: `count` rows of two UUID-shaped strings, made once and the same in every
/// run (a fixed generator, not `UUID()`, so the output can be checked against the baseline).
public struct TableEntry: Sendable {
    public let id: String
    public let name: String
}

public enum TableData {
    public static func entries(count: Int) -> [TableEntry] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func uuid() -> String {
            var bytes: [UInt8] = []
            for _ in 0..<2 {
                // SplitMix64: 16 random bytes per UUID.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for shift in stride(from: 0, to: 64, by: 8) {
                    bytes.append(UInt8(truncatingIfNeeded: z >> UInt64(shift)))
                }
            }
            let hex = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            for (index, byte) in bytes.enumerated() {
                if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 0xF)])
            }
            return String(decoding: text, as: UTF8.self)
        }
        return (0..<count).map { _ in TableEntry(id: uuid(), name: uuid()) }
    }
}

/// Benchmark 9: the eknkc/ssr-benchmark page. One `Suspense` around a table whose rows come from
/// one query that waits once (`Task.yield()`, as the original's `setImmediate`) and then answers
/// `rows` entries of two UUIDs each, one `<tr>` per entry.
public struct TablePage: Component {
    public let data: [TableEntry]
    public init(data: [TableEntry]) { self.data = data }

    public var body: some Component {
        Suspense {
            try AsyncTable(data: data)
        } fallback: {
            EmptyComponent()
        }
    }
}

public struct AsyncTable: Component {
    let entries: [TableEntry]

    public init(data: [TableEntry]) throws {
        entries = try resolveValue(key: "table/\(data.count)") {
            await Task.yield()
            return data
        }
    }

    public var body: some Component {
        Element("table") {
            Element("tbody") {
                ForEach(entries, id: \.id) { entry in
                    TableRow(entry: entry)
                }
            }
        }
    }
}

public struct TableRow: Component {
    let entry: TableEntry

    public var body: some Component {
        Element("tr") {
            Element("td") { Text(entry.id) }
            Element("td") { Text(entry.name) }
        }
    }
}
