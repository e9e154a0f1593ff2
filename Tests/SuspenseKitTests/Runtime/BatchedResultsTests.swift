import Testing

@testable import SuspenseKit

// A whole render applies the results that arrived together in one pass (nobody observes the
// passes). The tree must be the one a pass per result gives: each query's slots are evaluated
// again in its turn, a component that reads a second key suspends again, a failure reaches its
// boundary, and a component reads a key whose result came in the same batch without running it
// again.

/// Reads its own key, whose query yields once.
private struct YieldingRow: Component {
    let text: String
    init(_ index: Int, made: Counter, runs: Counter) throws {
        made.increment()
        text = try resolveValue(key: "row/\(index)") {
            runs.increment()
            await Task.yield()
            return "row \(index)"
        }
    }
    var body: some Component { Element("li") { Text(text) } }
}

/// Reads two keys one after the other, each yielding once: it suspends twice.
private struct TwoKeys: Component {
    let text: String
    init(made: Counter) throws {
        made.increment()
        let first: String = try resolveValue(key: "first") {
            await Task.yield()
            return "first"
        }
        let second: String = try resolveValue(key: "second/\(first)") {
            await Task.yield()
            return "second"
        }
        text = first + "+" + second
    }
    var body: some Component { Element("li") { Text(text) } }
}

@Suite struct BatchedResultsTests {
    @Test func aWholeRenderOfManyQueriesThatSuspendEndsAsAPassPerResultWould() async throws {
        let count = 2_000
        let made = Counter()
        let runs = Counter()
        let twoKeysMade = Counter()
        let page = Element("main") {
            Suspense {
                Element("ul") {
                    ForEach(0..<count) { index in
                        try YieldingRow(index, made: made, runs: runs)
                    }
                    try TwoKeys(made: twoKeysMade)
                    ErrorBoundary {
                        try Failing("fails/late", message: "late failure")
                    } fallback: { error in
                        Element("li") { Text("caught: \(error)") }
                    }
                    // The same keys read again, inside a Suspense of their own.
                    Suspense {
                        ForEach(0..<count) { index in
                            try YieldingRow(index, made: made, runs: runs)
                        }
                    } fallback: {
                        Text("inner loading")
                    }
                }
            } fallback: {
                Text("loading")
            }
        }
        let output = try await render(page, as: .html)
        let rows = (0..<count).map { "<li>row \($0)</li>" }.joined()
        #expect(
            output == "<main><ul>" + rows + "<li>first+second</li><li>caught: late failure</li>" + rows
                + "</ul></main>")
        // Each key ran once; each row was made once and again once its result (or the result of
        // the same key, read by the other row) arrived; the reader of two keys three times.
        #expect(runs.value == count)
        #expect(made.value == 4 * count)
        #expect(twoKeysMade.value == 3)
    }

    @Test func aStreamedRenderOfTheSameTreeShowsTheSameRows() async throws {
        // A stream observes every pass and applies each result in a pass of its own: its final
        // page holds the same rows.
        let count = 500
        let page = Suspense {
            Element("ul") {
                ForEach(0..<count) { index in
                    try YieldingRow(index, made: Counter(), runs: Counter())
                }
            }
        } fallback: {
            Text("loading")
        }
        let whole = try await render(page, as: .html)
        let streamed = try await renderStream(page).collect()
        #expect(whole == "<ul>" + (0..<count).map { "<li>row \($0)</li>" }.joined() + "</ul>")
        #expect(streamed.contains(whole))
    }
}
