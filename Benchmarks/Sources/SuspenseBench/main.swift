// Runs the five SuspenseKit benchmarks in one process, each next to a hand-written byte-buffer
// baseline that produces identical output (checked once before measuring), and prints a markdown
// table of medians and ratios measured in this run.
//
//     swift run -c release --package-path Benchmarks SuspenseBench [--runs N] [--items N]
//                                                                   [--memory-items N] [--no-plot]
//                                                                   [--only 1,2,…]
//     SuspenseBench --profile static-html|static-tree|static-plain|suspending|shared|baseline|page|sleeping|
//                             slow|streamed-page|streamed-boundaries|yielding|table|streamed-table|
//                             table-baseline|immediate-floor|yielding-floor|slow-floor N [TIMES]
//     SuspenseBench --rss suspending|sleeping|static-html N TIMES
//     SuspenseBench --churn READS KEYS CAPACITY   (a shared cache under churn: BenchmarkTrees/Churn.swift)
//     SuspenseBench --fixed-cost ITEMS RENDERS    (a render's fixed cost, main actor against no actor)
//     SuspenseBench --in-order [--runs N] [--boundaries 10,100,…]   (BenchmarkTrees/InOrderBench.swift)
//
// Peak memory is measured in a fresh subprocess per subject (this executable with
// `--memory-child suspensekit|baseline|plot|suspending|immediate-floor N`), from /proc/self/status
// VmHWM after resetting it through /proc/self/clear_refs.
import BenchmarkTrees
import Foundation
import SuspenseKit

struct Options {
    var runs = 7
    var items = 100_000
    var memoryItems = 500_000  // 1 <ul> + 500,000 <li> + 500,000 texts = 1,000,001 nodes
    var slowCount = 1_000
    var sharedCount = 10_000
    var sleepingKeys = 1_000
    var plot = true
    /// The benchmarks to run, by number: all by default.
    var only: Set<Int> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    /// Benchmark 8: how many items suspend once each.
    var yieldingItems = 10_000
    /// Benchmark 9: the rows of the eknkc/ssr-benchmark page.
    var tableRows = 1_000
    /// Benchmark 10: the items of the small pages, and how many renders one timed sample makes.
    var smallItems = 1_000
    var smallRepeat = 50
    /// Benchmark 7: how many boundaries each streamed page has.
    var boundaryCounts = [10, 100, 1_000, 10_000]
    /// Benchmark 7: the rows of the page behind one Suspense.
    var pageRows = 1_000

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--runs": runs = Int(iterator.next() ?? "") ?? runs
            case "--items": items = Int(iterator.next() ?? "") ?? items
            case "--memory-items": memoryItems = Int(iterator.next() ?? "") ?? memoryItems
            case "--no-plot": plot = false
            case "--only": only = Set((iterator.next() ?? "").split(separator: ",").compactMap { Int($0) })
            case "--rows": pageRows = Int(iterator.next() ?? "") ?? pageRows
            case "--yielding-items": yieldingItems = Int(iterator.next() ?? "") ?? yieldingItems
            case "--table-rows": tableRows = Int(iterator.next() ?? "") ?? tableRows
            case "--boundaries":
                boundaryCounts = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            default: break
            }
        }
    }
}

// MARK: Measuring

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Times each subject `runs` times, interleaved (a, b, c, a, b, c, …) after one warm-up round,
/// so that the machine's noise falls on all of them alike. Returns each subject's times in ms.
@MainActor
func measureInterleaved(runs: Int, _ subjects: [() async throws -> Void]) async throws -> [[Double]] {
    let clock = ContinuousClock()
    var times = Array(repeating: [Double](), count: subjects.count)
    for round in 0...runs {
        for (index, subject) in subjects.enumerated() {
            let elapsed = try await clock.measure { try await subject() }
            if round > 0 { times[index].append(milliseconds(elapsed)) }
        }
    }
    return times
}

@inline(never)
func consume(_ string: String) {
    if string.utf8.count == 42 { print("") }
}

func check(_ what: String, _ ours: String, equals baseline: String) {
    guard ours == baseline else {
        let ourPrefix = ours.prefix(300)
        let basePrefix = baseline.prefix(300)
        fatalError("\(what): output differs from the baseline\nours:     \(ourPrefix)\nbaseline: \(basePrefix)")
    }
}

func formatMS(_ value: Double) -> String {
    if value < 1 { return String(format: "%.1f µs", value * 1000) }
    return value >= 100 ? String(format: "%.0f ms", value) : String(format: "%.1f ms", value)
}

func formatRatio(_ value: Double) -> String {
    String(format: "%.2f×", value)
}

func formatMB(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

// MARK: Peak memory, in a fresh process

func statusField(_ name: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
        return (Int(digits) ?? -1) * 1024
    }
    return -1
}

/// In the child: renders `subject` once and prints `peak_bytes output_bytes`, where peak is the
/// growth of the resident set's high-water mark over the resident set before rendering.
func memoryChild(subject: String, items: Int) async throws {
    // Reset VmHWM to the current RSS (Linux ≥ 4.0), then measure from here.
    if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        handle.write("5".data(using: .utf8)!)
        try? handle.close()
    }
    let before = statusField("VmRSS")
    let output: String
    switch subject {
    case "suspensekit": output = try await Workloads.staticTree(count: items, as: .html)
    case "baseline": output = Baseline.html(count: items)
    case "plot": output = PlotTrees.html(count: items)
    case "suspending": output = try await Workloads.suspendingItems(count: items)
    case "immediate-floor": output = await RuntimeFloor.html(count: items, waiting: .none)
    default: fatalError("unknown subject \(subject)")
    }
    let peak = statusField("VmHWM")
    withExtendedLifetime(output) {
        print(peak - before, output.utf8.count)
    }
}

func measureMemory(subject: String, items: Int) throws -> (peak: Int, output: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--memory-child", subject, String(items)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard process.terminationStatus == 0, fields.count == 2 else {
        fatalError("memory child \(subject) failed: \(String(decoding: data, as: UTF8.self))")
    }
    return (fields[0], fields[1])
}

// MARK: Profiling

/// Benchmark 9's rows, made once per process (as the original makes its data once).
nonisolated(unsafe) var tableDataCache: [Int: [TableEntry]] = [:]

func tableData(_ rows: Int) -> [TableEntry] {
    if let data = tableDataCache[rows] { return data }
    let data = TableData.entries(count: rows)
    tableDataCache[rows] = data
    return data
}

/// Runs one workload once, for `valgrind --tool=callgrind` (instruction counts are repeatable on
/// a noisy machine): `SuspenseBench --profile static-html 20000`.
func profile(_ workload: String, items: Int, times: Int = 1) async throws {
    for _ in 1..<max(times, 1) { try await profileOnce(workload, items: items) }
    try await profileOnce(workload, items: items, printing: true)
}

func profileOnce(_ workload: String, items: Int, printing: Bool = false) async throws {
    let output: String
    switch workload {
    case "baseline": output = Baseline.html(count: items)
    case "static-html": output = try await Workloads.staticTree(count: items, as: .html)
    case "static-tree": output = try await Workloads.staticTree(count: items, as: .tree)
    case "static-plain": output = try await Workloads.staticTree(count: items, as: .plain)
    case "links": output = try await Workloads.links(count: items)
    case "suspending": output = try await Workloads.suspendingItems(count: items)
    case "shared": output = try await Workloads.sharedKey(count: items).output
    case "page": output = try await Workloads.page(count: items)
    case "streamed-page": output = try await Workloads.streamedPage(count: items)
    case "streamed-boundaries": output = try await Workloads.streamedBoundaries(count: items)
    case "yielding": output = try await Workloads.yieldingItems(count: items)
    case "immediate-floor": output = await RuntimeFloor.html(count: items, waiting: .none)
    case "yielding-floor": output = await RuntimeFloor.html(count: items, waiting: .yield)
    case "slow-floor": output = await RuntimeFloor.html(count: items, waiting: .sleep(.milliseconds(50)))
    case "slow": output = try await Workloads.slowSiblings(count: items, delay: .milliseconds(50))  // benchmark 3
    case "sleeping":
        // Benchmark 6: a hundred components on each key, each query sleeping 1 ms.
        output = try await Workloads.sleepingKeys(count: items, keys: max(items / 100, 1), delay: .milliseconds(1))
    case "table": output = try await Workloads.table(tableData(items))
    case "streamed-table": output = try await Workloads.streamedTable(tableData(items))
    case "table-baseline": output = Baseline.table(tableData(items))
    default: fatalError("unknown workload \(workload)")
    }
    if printing { print(workload, items, output.utf8.count) }
}

/// Runs one workload `times` times in this process and prints the resident memory after each
/// render, to show whether renders leave anything behind: `SuspenseBench --rss suspending 100000 20`.
func residentMemory(_ workload: String, items: Int, times: Int) async throws {
    func rss() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? "VmRSS: ?"
        return line.dropFirst("VmRSS:".count).trimmingCharacters(in: .whitespaces)
    }
    for round in 1...times {
        let output: String
        switch workload {
        case "suspending": output = try await Workloads.suspendingItems(count: items)
        case "static-html": output = try await Workloads.staticTree(count: items, as: .html)
        // Every item suspends for real: its query sleeps 1 ms.
        case "sleeping": output = try await Workloads.slowSiblings(count: items, delay: .milliseconds(1))
        default: fatalError("unknown workload \(workload)")
        }
        print("render \(round): \(output.utf8.count) bytes, VmRSS \(rss())")
    }
}

// MARK: Machine

func machineDescription() -> String {
    var cpu = "unknown CPU"
    if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    {
        cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
    return "\(cpu), \(cores) cores, \(String(format: "%.0f", memory)) GiB, "
        + "\(ProcessInfo.processInfo.operatingSystemVersionString)"
}

// MARK: Main

@main
struct SuspenseBench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--memory-child", arguments.count == 3, let items = Int(arguments[2]) {
            try await memoryChild(subject: arguments[1], items: items)
            return
        }
        if arguments.first == "--rss", arguments.count == 4, let items = Int(arguments[2]),
            let times = Int(arguments[3])
        {
            try await residentMemory(arguments[1], items: items, times: times)
            return
        }
        if arguments.first == "--profile", (3...4).contains(arguments.count), let items = Int(arguments[2]) {
            try await profile(arguments[1], items: items, times: arguments.count == 4 ? Int(arguments[3]) ?? 1 : 1)
            return
        }
        if arguments.first == "--fixed-cost", arguments.count == 3, let items = Int(arguments[1]),
            let times = Int(arguments[2])
        {
            try await fixedCost(items: items, renders: times)
            return
        }
        if arguments.first == "--churn", arguments.count == 4, let reads = Int(arguments[1]),
            let keys = Int(arguments[2]), let capacity = Int(arguments[3])
        {
            try await Churn.run(reads: reads, keys: keys, capacity: capacity)
            return
        }
        if arguments.first == "--in-order" {
            try await InOrderBench.run(Array(arguments.dropFirst()))
            return
        }
        let options = Options(arguments)
        let n = options.items
        let nText = n.formatted()
        print("SuspenseBench: \(options.runs) runs each (medians), \(machineDescription())\n")

        // Identical output, checked once.
        let baselineHTML = Baseline.html(count: n)
        check("static .html", try await Workloads.staticTree(count: n, as: .html), equals: baselineHTML)
        check("static .tree", try await Workloads.staticTree(count: n, as: .tree), equals: Baseline.tree(count: n))
        check("static .plain", try await Workloads.staticTree(count: n, as: .plain), equals: Baseline.plain(count: n))
        check("every item suspends", try await Workloads.suspendingItems(count: n), equals: baselineHTML)
        let plotIdentical = !options.plot || PlotTrees.html(count: 10) == Baseline.html(count: 10)
        let slowBaseline = Baseline.html(count: options.slowCount)
        check(
            "slow siblings",
            try await Workloads.slowSiblings(count: options.slowCount, delay: .milliseconds(50)),
            equals: slowBaseline
        )
        let sleepingKeys = options.sleepingKeys
        check(
            "sleeping keys",
            try await Workloads.sleepingKeys(count: n, keys: sleepingKeys, delay: .milliseconds(1)),
            equals: Baseline.html(count: n) { itemText($0 % sleepingKeys) }
        )
        let sharedBaseline = Baseline.html(count: options.sharedCount) { _ in sharedText }
        let shared = try await Workloads.sharedKey(count: options.sharedCount)
        check("shared key", shared.output, equals: sharedBaseline)

        var rows: [String] = []
        func row(_ cells: String...) { rows.append("| " + cells.joined(separator: " | ") + " |") }

        // 1. Static tree.
        if options.only.contains(1) {
            var subjects: [() async throws -> Void] = [
                { consume(Baseline.html(count: n)) },
                { consume(try await Workloads.staticTree(count: n, as: .html)) },
            ]
            if options.plot { subjects.append { consume(PlotTrees.html(count: n)) } }
            let html = try await measureInterleaved(runs: options.runs, subjects)
            let plotTime = options.plot ? formatMS(median(html[2])) : "—"
            row(
                "1. static tree, \(nText) `<li>`, `.html`", formatMS(median(html[1])), formatMS(median(html[0])),
                formatRatio(median(html[1]) / median(html[0])), "≤ 1.3×", plotTime
            )
            for (name, format, baseline) in [
                ("`.tree`", RenderFormat.tree, { Baseline.tree(count: n) }),
                ("`.plain`", RenderFormat.plain, { Baseline.plain(count: n) }),
            ] as [(String, RenderFormat, () -> String)] {
                let times = try await measureInterleaved(
                    runs: options.runs,
                    [
                        { consume(baseline()) },
                        { consume(try await Workloads.staticTree(count: n, as: format)) },
                    ])
                row(
                    "1. static tree, \(nText) `<li>`, \(name)", formatMS(median(times[1])), formatMS(median(times[0])),
                    formatRatio(median(times[1]) / median(times[0])), "≤ 1.5×", "—"
                )
            }

        }

        // 2. Every item suspends on its own key.
        if options.only.contains(2) {
            check("runtime floor, at once", await RuntimeFloor.html(count: n, waiting: .none), equals: baselineHTML)
            let suspending = try await measureInterleaved(
                runs: options.runs,
                [
                    { consume(Baseline.html(count: n)) },
                    { consume(try await Workloads.suspendingItems(count: n)) },
                    { consume(await RuntimeFloor.html(count: n, waiting: .none)) },
                ])
            row(
                "2. every item suspends on its own key, \(nText) queries, one Suspense",
                formatMS(median(suspending[1])), formatMS(median(suspending[0])),
                formatRatio(median(suspending[1]) / median(suspending[0])), "≤ 10× (goal 5×)", "(cannot suspend)"
            )
            // The runtime's floor under it: one bare immediate task per item, answering at once.
            row(
                "2. runtime floor: \(nText) bare immediate tasks answering at once, no library",
                formatMS(median(suspending[2])), formatMS(median(suspending[0])),
                formatRatio(median(suspending[2]) / median(suspending[0])), "—", "—"
            )

        }

        // 3. Sibling queries of 50 ms each.
        if options.only.contains(3) {
            // The floor, measured in the same run: one query of 50 ms alone.
            // And the runtime's floor: as many bare immediate tasks, each sleeping 50 ms.
            let count = options.slowCount
            check(
                "runtime floor, sleeping", await RuntimeFloor.html(count: count, waiting: .sleep(.milliseconds(50))),
                equals: Baseline.html(count: count))
            let slow = try await measureInterleaved(
                runs: options.runs,
                [
                    { consume(try await Workloads.slowSiblings(count: 1, delay: .milliseconds(50))) },
                    { consume(try await Workloads.slowSiblings(count: count, delay: .milliseconds(50))) },
                    { consume(await RuntimeFloor.html(count: count, waiting: .sleep(.milliseconds(50)))) },
                ])
            let slowMedian = median(slow[1])
            row(
                "3. \(count.formatted()) siblings × 50 ms query: wall", formatMS(slowMedian),
                "\(formatMS(median(slow[0]))) (1 sibling × 50 ms)", formatRatio(slowMedian / median(slow[0])),
                "≤ 60 ms",
                "—"
            )
            row(
                "3. runtime floor: \(count.formatted()) bare immediate tasks × 50 ms sleep, no library: wall",
                formatMS(median(slow[2])), "\(formatMS(median(slow[0]))) (1 sibling × 50 ms)",
                formatRatio(median(slow[2]) / median(slow[0])), "—", "—"
            )
        }

        // 4. One key shared by many components.
        if options.only.contains(4) {
            var executions: [Int] = []
            let sharedTimes = try await measureInterleaved(
                runs: options.runs,
                [
                    { consume(Baseline.html(count: options.sharedCount) { _ in sharedText }) },
                    {
                        let result = try await Workloads.sharedKey(count: options.sharedCount)
                        executions.append(result.executions)
                        consume(result.output)
                    },
                ])
            let executionSummary = Set(executions).sorted().map(String.init).joined(separator: ", ")
            row(
                "4. \(options.sharedCount.formatted()) components, one shared key: wall "
                    + "(query executions: \(executionSummary))",
                formatMS(median(sharedTimes[1])), formatMS(median(sharedTimes[0])),
                formatRatio(median(sharedTimes[1]) / median(sharedTimes[0])), "1 execution", "—"
            )

        }

        // 5. Peak memory, each subject in a fresh process.
        if options.only.contains(5) {
            let memoryNodes = (1 + 2 * options.memoryItems).formatted()
            let ours = try measureMemory(subject: "suspensekit", items: options.memoryItems)
            let baseline = try measureMemory(subject: "baseline", items: options.memoryItems)
            var plotMemory = "—"
            if options.plot {
                let plot = try measureMemory(subject: "plot", items: options.memoryItems)
                plotMemory = "\(formatMB(plot.peak)) (\(formatRatio(Double(plot.peak) / Double(plot.output))) output)"
            }
            row(
                "5. \(memoryNodes) nodes to `.html`: peak memory (output \(formatMB(ours.output)))",
                "\(formatMB(ours.peak)) = \(formatRatio(Double(ours.peak) / Double(ours.output))) output",
                "\(formatMB(baseline.peak)) = \(formatRatio(Double(baseline.peak) / Double(baseline.output))) output",
                formatRatio(Double(ours.peak) / Double(baseline.peak)), "≤ 3× output", plotMemory
            )
            // Not a target: what suspending costs in memory (benchmark 2's tree, in a fresh process).
            let suspending = try measureMemory(subject: "suspending", items: n)
            let suspendingBaseline = try measureMemory(subject: "baseline", items: n)
            row(
                "5. benchmark 2's tree, \(nText) suspending items: peak memory "
                    + "(output \(formatMB(suspending.output)))",
                "\(formatMB(suspending.peak)) = "
                    + "\(formatRatio(Double(suspending.peak) / Double(suspending.output))) output",
                "\(formatMB(suspendingBaseline.peak)) = "
                    + "\(formatRatio(Double(suspendingBaseline.peak) / Double(suspendingBaseline.output))) output",
                formatRatio(Double(suspending.peak) / Double(suspendingBaseline.peak)), "≤ 8× output", "—"
            )
            // Its floor, with no library: a bare immediate task per item, every text kept until the
            // page is written by the baseline (which writes it twice: a buffer, then the string).
            let suspendingFloor = try measureMemory(subject: "immediate-floor", items: n)
            row(
                "5. benchmark 2's runtime floor (bare immediate tasks, every text kept): peak memory",
                "\(formatMB(suspendingFloor.peak)) = "
                    + "\(formatRatio(Double(suspendingFloor.peak) / Double(suspendingFloor.output))) output",
                "—", formatRatio(Double(suspending.peak) / Double(suspendingFloor.peak)) + " of it", "—", "—"
            )
        }

        // 6. Many components on fewer keys whose queries really wait: on 1,000 keys, and all on
        // one key (every reader suspends on the same run, and waits in one list).
        if options.only.contains(6) {
            let sleeping = try await measureInterleaved(
                runs: options.runs,
                [
                    { consume(try await Workloads.sleepingKeys(count: 1, keys: 1, delay: .milliseconds(1))) },
                    {
                        consume(
                            try await Workloads.sleepingKeys(count: n, keys: sleepingKeys, delay: .milliseconds(1)))
                    },
                    { consume(try await Workloads.sleepingKeys(count: n, keys: 1, delay: .milliseconds(1))) },
                ])
            for (subject, keys) in [(1, sleepingKeys), (2, 1)] {
                row(
                    "6. \(nText) components on \(keys.formatted()) \(keys == 1 ? "key" : "keys"), "
                        + "each query sleeping 1 ms: wall",
                    formatMS(median(sleeping[subject])),
                    "\(formatMS(median(sleeping[0]))) (1 component, 1 key × 1 ms)",
                    formatRatio(median(sleeping[subject]) / median(sleeping[0])), "—", "—"
                )
            }
        }

        // 7. Streaming out of order: N boundaries, each swapped in after the shell, against the
        // same tree rendered whole; and a page behind one Suspense.
        if options.only.contains(7) {
            var perBoundary: [(count: Int, stream: Double)] = []
            for count in options.boundaryCounts {
                let whole = try await Workloads.boundaries(count: count)
                for swap in [StreamOptions.Swap.script, .declarative] {
                    let streamed = try await Workloads.streamedBoundaries(count: count, swap: swap)
                    let times = try await measureInterleaved(
                        runs: options.runs,
                        [
                            { consume(try await Workloads.boundaries(count: count)) },
                            { consume(try await Workloads.streamedBoundaries(count: count, swap: swap)) },
                        ])
                    let overhead = Double(streamed.utf8.count - whole.utf8.count) / Double(count)
                    // Queries that answer before the shell is sent resolve in it: count the swaps.
                    let swaps =
                        streamed.components(separatedBy: swap == .script ? "$sk(\"" : "<template for=").count - 1
                    if swap == .script { perBoundary.append((count, median(times[1]))) }
                    row(
                        "7. \(count.formatted()) boundaries streamed out of order (\(swap), \(swaps.formatted()) swapped): "
                            + String(
                                format: "%.1f µs and %.0f bytes more per boundary",
                                1000 * median(times[1]) / Double(count), overhead),
                        formatMS(median(times[1])), "\(formatMS(median(times[0]))) (`render`)",
                        formatRatio(median(times[1]) / median(times[0])), "linear", "—"
                    )
                }
            }
            if let small = perBoundary.first(where: { $0.count == 1_000 }),
                let large = perBoundary.first(where: { $0.count == 10_000 })
            {
                row(
                    "7. 10,000 boundaries / (1,000 × 10), script", formatMS(large.stream), formatMS(small.stream * 10),
                    formatRatio(large.stream / (small.stream * 10)), "≤ 2×", "—"
                )
            }
            let rows = options.pageRows
            let page = try await measureInterleaved(
                runs: options.runs,
                [
                    { consume(try await Workloads.page(count: rows)) },
                    { consume(try await Workloads.streamedPage(count: rows)) },
                ])
            row(
                "7. a page, \(rows.formatted()) rows behind one Suspense: `renderStream` / `render`",
                formatMS(median(page[1])), "\(formatMS(median(page[0]))) (`render`)",
                formatRatio(median(page[1]) / median(page[0])), "≤ 1.15×", "—"
            )
        }

        try await waitingBenchmarks(options, row: row)

        print("| Benchmark | SuspenseKit | Baseline (byte buffer) | Ratio | Target | Plot 0.14.0 |")
        print("|---|---:|---:|---:|---|---:|")
        for line in rows { print(line) }
        print("")
        print("Ratios are SuspenseKit / baseline, medians of \(options.runs) interleaved runs in this process.")
        if !plotIdentical { print("Plot's output differs from ours (its escaping); its time is for comparison only.") }
    }
}

// MARK: Queries that really wait, and fixed cost

/// Benchmarks 8–10: items whose queries suspend once, the eknkc/ssr-benchmark page, and small
/// pages, each against its hand-written baseline measured in the same run.
@MainActor
func waitingBenchmarks(_ options: Options, row: (String...) -> Void) async throws {
    // 8. Every item's query suspends once before it answers.
    if options.only.contains(8) {
        let count = options.yieldingItems
        check("yielding items", try await Workloads.yieldingItems(count: count), equals: Baseline.html(count: count))
        check(
            "runtime floor, yielding", await RuntimeFloor.html(count: count, waiting: .yield),
            equals: Baseline.html(count: count))
        let times = try await measureInterleaved(
            runs: options.runs,
            [
                { consume(Baseline.html(count: count)) },
                { consume(try await Workloads.yieldingItems(count: count)) },
                { consume(await RuntimeFloor.html(count: count, waiting: .yield)) },
            ])
        row(
            "8. every item suspends once (`Task.yield()`), \(count.formatted()) queries, one Suspense: "
                + String(format: "%.2f µs per item", 1000 * median(times[1]) / Double(count)),
            formatMS(median(times[1])), formatMS(median(times[0])), formatRatio(median(times[1]) / median(times[0])),
            "≤ 12×", "—"
        )
        // The runtime's floor under it: the same items as bare immediate tasks that yield once.
        row(
            "8. runtime floor: \(count.formatted()) bare immediate tasks yielding once, no library: "
                + String(format: "%.2f µs per item", 1000 * median(times[2]) / Double(count)),
            formatMS(median(times[2])), formatMS(median(times[0])), formatRatio(median(times[2]) / median(times[0])),
            "—", "—"
        )
    }

    // 9. The eknkc/ssr-benchmark page: rows × 2 UUIDs from one query that waits once.
    if options.only.contains(9) {
        let data = tableData(options.tableRows)
        let baseline = Baseline.table(data)
        check("table page", try await Workloads.table(data), equals: baseline)
        let streamed = try await Workloads.streamedTable(data)
        guard streamed.contains(String(baseline.dropFirst("<table>".count))) else {
            fatalError("streamed table page: the rows are missing\n\(streamed.prefix(300))")
        }
        let times = try await measureInterleaved(
            runs: options.runs,
            [
                { for _ in 0..<10 { consume(Baseline.table(data)) } },
                { for _ in 0..<10 { consume(try await Workloads.table(data)) } },
                { for _ in 0..<10 { consume(try await Workloads.streamedTable(data)) } },
            ])
        for (subject, name) in [(1, "`render`"), (2, "`renderStream`")] {
            let perRender = median(times[subject]) / 10
            row(
                "9. eknkc/ssr-benchmark page, \(options.tableRows.formatted()) rows × 2 UUIDs, \(name): "
                    + String(format: "%.0f renders/s", 1000 / perRender),
                formatMS(perRender), formatMS(median(times[0]) / 10),
                formatRatio(median(times[subject]) / median(times[0])), "—", "—"
            )
        }
    }

    // 10. A small page, for a render's fixed cost: static, and every item suspending at once.
    if options.only.contains(10) {
        let count = options.smallItems
        let repeats = options.smallRepeat
        check(
            "small static", try await Workloads.staticTree(count: count, as: .html), equals: Baseline.html(count: count)
        )
        check(
            "small suspending", try await Workloads.suspendingItems(count: count), equals: Baseline.html(count: count))
        // Each subject loops where it renders: calling a function of no actor from this one
        // per render would add two executor hops to each render, which the baseline does not pay.
        let times = try await measureInterleaved(
            runs: options.runs,
            [
                { for _ in 0..<repeats { consume(Baseline.html(count: count)) } },
                { try await rendersOnNoActor(items: count, renders: repeats) },
                { try await rendersOnNoActor(items: count, renders: repeats, suspending: true) },
                { for _ in 0..<repeats { consume(try await Workloads.staticTreeHere(count: count, as: .html)) } },
            ])
        let subjects = [
            (1, "static, from a task with no actor", "≤ 1.3×"),
            (2, "every item suspends (answers at once)", "—"),
            (
                3,
                "static, on the main actor (\(formatRatio(median(times[3]) / median(times[1]))) the same from no actor)",
                "≤ 1.5× no actor"
            ),
        ]
        for (subject, name, target) in subjects {
            row(
                "10. small page, \(count.formatted()) `<li>`, \(name), `.html`",
                formatMS(median(times[subject]) / Double(repeats)), formatMS(median(times[0]) / Double(repeats)),
                formatRatio(median(times[subject]) / median(times[0])), target, "—"
            )
        }
    }
}

/// `renders` renders of the static tree (or benchmark 2's, `suspending`) from a task with no
/// actor, as a server's handler renders.
nonisolated func rendersOnNoActor(items: Int, renders: Int, suspending: Bool = false) async throws {
    for _ in 0..<renders {
        if suspending {
            consume(try await Workloads.suspendingItems(count: items))
        } else {
            consume(try await Workloads.staticTree(count: items, as: .html))
        }
    }
}

/// A render's fixed cost from the main actor and from no actor: `renders` renders of `items`
/// static `<li>` each way, alternated, the median of 7 rounds: `SuspenseBench --fixed-cost 10 2000`.
@MainActor
func fixedCost(items: Int, renders: Int) async throws {
    let times = try await measureInterleaved(
        runs: 7,
        [
            { for _ in 0..<renders { consume(try await Workloads.staticTreeHere(count: items, as: .html)) } },
            { try await rendersOnNoActor(items: items, renders: renders) },
        ])
    let mainActor = median(times[0]) * 1000 / Double(renders)
    let noActor = median(times[1]) * 1000 / Double(renders)
    print(
        String(
            format: "%d items: %.2f µs a render from the main actor, %.2f µs from no actor (%.2f×)",
            items, mainActor, noActor, mainActor / noActor))
}
