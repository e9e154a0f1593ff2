// The SuspenseKit workloads under ordo-one/benchmark, with the byte-buffer baseline and Plot
// beside them, for its statistics, malloc counts and comparisons against saved baselines:
//
//     swift package --package-path Benchmarks benchmark
//
// It prints no ratios; `swift run -c release --package-path Benchmarks SuspenseBench` does.
import Benchmark
import BenchmarkTrees
import SuspenseKit

let items = 100_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(10),
        maxIterations: 20
    )

    Benchmark("1 static html 100k · baseline") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Baseline.html(count: items)) }
    }
    Benchmark("1 static html 100k · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.staticTree(count: items, as: .html))
        }
    }
    Benchmark("1 static html 100k · Plot", configuration: .init(maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(PlotTrees.html(count: items)) }
    }
    Benchmark("1 static tree 100k · baseline") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Baseline.tree(count: items)) }
    }
    Benchmark("1 static tree 100k · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.staticTree(count: items, as: .tree))
        }
    }
    Benchmark("1 static plain 100k · baseline") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Baseline.plain(count: items)) }
    }
    Benchmark("1 static plain 100k · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.staticTree(count: items, as: .plain))
        }
    }
    Benchmark("2 every item suspends 100k · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.suspendingItems(count: items))
        }
    }
    Benchmark("3 1000 siblings x 50 ms · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.slowSiblings(count: 1_000, delay: .milliseconds(50)))
        }
    }
    Benchmark("4 10k components one key · SuspenseKit") { benchmark in
        for _ in benchmark.scaledIterations {
            let result = try await Workloads.sharedKey(count: 10_000)
            precondition(result.executions == 1, "the shared query ran \(result.executions) times")
            blackHole(result.output)
        }
    }
    Benchmark("5 1M nodes html · baseline", configuration: .init(maxIterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Baseline.html(count: 500_000)) }
    }
    Benchmark("5 1M nodes html · SuspenseKit", configuration: .init(maxIterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Workloads.staticTree(count: 500_000, as: .html))
        }
    }
}
