// In-order streaming of 10 to 10,000 boundaries, next to the same page streamed out of order and
// rendered whole, measured interleaved in one run:
//
//     swift run -c release --package-path Benchmarks SuspenseBench --in-order [--runs N]
//                                                                  [--boundaries 10,100,…]
//
// Here rather than in SuspenseBench's main.swift, whose target can hold no other file with
// top-level code beside its `@main` type.
import Foundation
import SuspenseKit

public enum InOrderBench {
    /// Prints a markdown table: for each count, the in-order stream's median time, per boundary,
    /// and against the out-of-order stream and `render` of the same page; bytes more than
    /// `render` per boundary (an in-order stream writes the page itself, so none).
    @MainActor
    public static func run(_ arguments: [String]) async throws {
        var runs = 7
        var counts = [10, 100, 1_000, 10_000]
        if let flag = arguments.firstIndex(of: "--runs"), flag + 1 < arguments.count {
            runs = Int(arguments[flag + 1]) ?? runs
        }
        if let flag = arguments.firstIndex(of: "--boundaries"), flag + 1 < arguments.count {
            counts = arguments[flag + 1].split(separator: ",").compactMap { Int($0) }
        }
        print("SuspenseBench --in-order: \(runs) runs each (medians), after one warm-up round\n")
        print(
            "| Boundaries | in order | per boundary | out of order | `render` | in order / out of order "
                + "| bytes more per boundary |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        var inOrderTimes: [Int: Double] = [:]
        for count in counts {
            let whole = try await Workloads.inOrderBoundaries(count: count)
            let streamed = try await Workloads.streamedInOrderBoundaries(count: count, order: .inOrder)
            guard streamed == whole else { fatalError("\(count) boundaries: the in-order stream differs from render") }
            let subjects: [() async throws -> String] = [
                { try await Workloads.streamedInOrderBoundaries(count: count, order: .inOrder) },
                { try await Workloads.streamedInOrderBoundaries(count: count, order: .outOfOrder) },
                { try await Workloads.inOrderBoundaries(count: count) },
            ]
            // Interleaved (a, b, c, a, b, c, …) after one warm-up round, so that noise falls on all.
            var times: [[Double]] = Array(repeating: [], count: subjects.count)
            let clock = ContinuousClock()
            for round in 0...runs {
                for (index, subject) in subjects.enumerated() {
                    var output = ""
                    let elapsed = try await clock.measure { output = try await subject() }
                    if output.isEmpty { print("") }
                    if round > 0 { times[index].append(milliseconds(elapsed)) }
                }
            }
            let (inOrder, outOfOrder, render) = (median(times[0]), median(times[1]), median(times[2]))
            inOrderTimes[count] = inOrder
            let overhead = Double(streamed.utf8.count - whole.utf8.count) / Double(count)
            print(
                "| \(count.formatted()) | \(format(inOrder)) | \(String(format: "%.1f µs", 1000 * inOrder / Double(count))) "
                    + "| \(format(outOfOrder)) | \(format(render)) | \(String(format: "%.2f×", inOrder / outOfOrder)) "
                    + "| \(String(format: "%.0f", overhead)) |")
        }
        if let small = inOrderTimes[1_000], let large = inOrderTimes[10_000] {
            print(
                "\n10,000 boundaries in order / (1,000 × 10): "
                    + String(format: "%.2f×", large / (small * 10)) + " (linear: ≤ 2×)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f ms", value) : String(format: "%.1f ms", value)
    }
}
