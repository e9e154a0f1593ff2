// A shared cache under churn: many renders, each reading keys drawn from a large key space
// skewed toward a hot set, on one `QueryCache(capacity:)`. Prints the hit rate, the time per read
// and the peak resident memory:
//
//     SuspenseBench --churn READS KEYS CAPACITY      (e.g. 1000000 100000 10000)
import Foundation
import SuspenseKit

public enum Churn {
    /// Reads one key, whose query answers at once with a 1 KB value.
    struct Item: Component {
        let length: Int
        init(key: String) throws {
            let value: String = try resolveValue(key: key) { String(repeating: "x", count: 1024) }
            length = value.utf8.count
        }
        var body: some Component { EmptyComponent() }
    }

    public static func run(reads: Int, keys: Int, capacity: Int) async throws {
        let cache = QueryCache(capacity: capacity)
        let perRender = 100
        // A fixed linear congruential sequence: the same keys on every run.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextKey() -> String {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(seed >> 11) / Double(1 << 53)
            // Squared: low indices are read far more often, as a server's hot keys are.
            return "user/\(Int(unit * unit * Double(keys)))"
        }
        let start = ContinuousClock.now
        for _ in 0..<(reads / perRender) {
            let page = Group {
                ForEach(0..<perRender, id: \.self) { _ in try Item(key: nextKey()) }
            }
            _ = try await render(page, as: .plain, cache: cache)
        }
        let elapsed = ContinuousClock.now - start
        let statistics = cache.statistics
        let lookups = statistics.hits + statistics.misses
        let hitRate = Double(statistics.hits) / Double(max(lookups, 1))
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? "VmHWM: ?"
        print(
            "churn: \(reads) reads over \(keys) keys, capacity \(capacity): "
                + "hit rate \(String(format: "%.1f", hitRate * 100)) %, "
                + "\(String(format: "%.0f", nanoseconds / Double(reads))) ns a read, "
                + "\(statistics.evictions) evictions, \(statistics.entries) entries, "
                + "peak \(peak.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces))")
    }
}
