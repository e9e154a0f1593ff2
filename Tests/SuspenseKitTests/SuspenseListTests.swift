import SuspenseTesting
import Testing

@testable import SuspenseKit

/// SuspenseList: rows reveal in their list's order, in the resolver's model, so that frames,
/// `.tree`, both stream orders and a whole render agree. Every outcome is fixed and results are
/// applied in discovery order, so when each row's content is ready is set by how many queries it
/// reads one after the other (`Chain`): a chain of one key is ready after the first round of
/// results, a chain of three after the third.
@Suite(.snapshots) struct SuspenseListTests {
    /// Reads `steps` keys one after the other (`a1`, then `a2`, …): ready after `steps` rounds.
    struct Chain: Component {
        let name: String
        let last: String
        init(_ name: String, steps: Int) throws {
            var last = ""
            for step in 1...max(1, steps) {
                last = try resolveValue(key: "\(name)\(step)") { "\(name)\(step)" }
            }
            self.name = name
            self.last = last
        }
        var body: some Component { Element("p") { Text("\(name) after \(last)") } }
    }

    /// A row: a Suspense around a chain of `steps` keys, with a fallback naming it.
    struct Row: Component {
        let name: String
        let steps: Int
        var body: some Component {
            Suspense {
                try Chain(name, steps: steps)
            } fallback: {
                Text("loading \(name)")
            }
        }
    }

    /// Three rows that become ready last first: `c` after one round of results, `a` after two,
    /// `b` after three.
    struct LastFirst: Component {
        let order: RevealOrder
        let tail: RevealTail
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: order, tail: tail) {
                    Row(name: "a", steps: 2)
                    Row(name: "b", steps: 3)
                    Row(name: "c", steps: 1)
                }
            }
        }
    }

    static func outcomes(_ chains: [(String, Int)], failing: Set<String> = []) -> FixedOutcomes {
        var outcomes: [String: QueryOutcome] = [:]
        for (name, steps) in chains {
            for step in 1...steps {
                let key = "\(name)\(step)"
                outcomes[key] = failing.contains(key) ? .failure(Fixtures.Boom()) : .value(key)
            }
        }
        return FixedOutcomes(outcomes)
    }

    static let lastFirst = outcomes([("a", 2), ("b", 3), ("c", 1)])

    static let orders: [RevealOrder] = [.forwards, .backwards, .together, .independent]
    static let tails: [RevealTail] = [.hidden, .collapsed, .visible]

    // MARK: Every order and tail

    @Test(arguments: orders, tails)
    func frames(order: RevealOrder, tail: RevealTail) async {
        await assertSnapshot(of: LastFirst(order: order, tail: tail), as: .frames, outcomes: Self.lastFirst)
    }

    @Test(arguments: orders, tails)
    func outOfOrderStream(order: RevealOrder, tail: RevealTail) async {
        await assertSnapshot(of: LastFirst(order: order, tail: tail), as: .stream, outcomes: Self.lastFirst)
    }

    @Test(arguments: orders)
    func inOrderStream(order: RevealOrder) async {
        await assertSnapshot(
            of: LastFirst(order: order, tail: .visible), as: .stream(order: .inOrder), outcomes: Self.lastFirst)
    }

    /// `a` never answers (its outcome is pending), so the render ends with it on its fallback:
    /// the final `.tree` shows the rows held behind it (forwards) as such, with the fallbacks the
    /// tail shows; backwards, the rows after it reveal.
    @Test(arguments: [RevealOrder.forwards, .backwards], tails)
    func theFinalTreeShowsRowsHeldBehindARowThatNeverLoads(order: RevealOrder, tail: RevealTail) async {
        await assertSnapshot(
            of: LastFirst(order: order, tail: tail), as: .tree,
            outcomes: ["a1": .pending, "b1": .value("b1"), "b2": .value("b2"), "b3": .value("b3"), "c1": .value("c1")])
    }

    /// Whatever the order, the final page is the one without a list.
    @Test(arguments: orders, tails)
    func theFinalPageIsTheSame(order: RevealOrder, tail: RevealTail) async throws {
        let cache = Self.lastFirst.makeCache()
        let options = RenderOptions(deliveryOrder: .discovery)
        let html = try await render(LastFirst(order: order, tail: tail), as: .html, cache: cache, options: options)
        #expect(html == "<main><p>a after a2</p><p>b after b3</p><p>c after c1</p></main>")
    }

    // MARK: Errors, nesting, elements between rows

    /// Forwards, every fallback shown: a text row, `a` (two rounds), `b` whose first key fails
    /// inside an ErrorBoundary of its row, and `c` (one round), after an element row.
    struct ErroredMiddle: Component {
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .forwards, tail: .visible) {
                    Text("shown at once")
                    Row(name: "a", steps: 2)
                    ErrorBoundary {
                        Row(name: "b", steps: 2)
                    } fallback: { error in
                        Text("b failed: \(error)")
                    }
                    Element("hr")
                    Row(name: "c", steps: 1)
                }
            }
        }
    }

    static let erroredMiddle = outcomes([("a", 2), ("b", 1), ("c", 1)], failing: ["b1"])

    /// An outer forwards list whose second row is an inner forwards list: the inner rows wait for
    /// the outer row before them (`a`), then for each other; the outer row after the inner list
    /// (`d`) waits for all of it.
    struct Nested: Component {
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .forwards, tail: .visible) {
                    Row(name: "a", steps: 2)
                    SuspenseList(revealOrder: .forwards, tail: .visible) {
                        Row(name: "b", steps: 3)
                        Row(name: "c", steps: 1)
                    }
                    Row(name: "d", steps: 1)
                }
            }
        }
    }

    static let nested = outcomes([("a", 2), ("b", 3), ("c", 1), ("d", 1)])

    /// Together, with rows that are elements holding boundaries (React's "nested as siblings"):
    /// every boundary of every row reveals in one step.
    struct TogetherAcrossElements: Component {
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .together) {
                    Element("div") {
                        Row(name: "a", steps: 1)
                        Row(name: "b", steps: 2)
                    }
                    Element("div") {
                        Row(name: "c", steps: 3)
                    }
                }
            }
        }
    }

    static let togetherAcrossElements = outcomes([("a", 1), ("b", 2), ("c", 3)])

    @Test func anErroredMiddleRowLetsTheRowsAfterItReveal() async {
        await assertSnapshot(of: ErroredMiddle(), as: .frames, outcomes: Self.erroredMiddle)
        await assertSnapshot(of: ErroredMiddle(), as: .stream, outcomes: Self.erroredMiddle)
        await assertSnapshot(of: ErroredMiddle(), as: .stream(order: .inOrder), outcomes: Self.erroredMiddle)
    }

    @Test func aNestedListIsHeldByItsParent() async {
        await assertSnapshot(of: Nested(), as: .frames, outcomes: Self.nested)
        await assertSnapshot(of: Nested(), as: .stream, outcomes: Self.nested)
        await assertSnapshot(of: Nested(), as: .stream(order: .inOrder), outcomes: Self.nested)
    }

    @Test func togetherRevealsBoundariesInsideElementRowsInOneChunk() async throws {
        await assertSnapshot(of: TogetherAcrossElements(), as: .frames, outcomes: Self.togetherAcrossElements)
        await assertSnapshot(of: TogetherAcrossElements(), as: .stream, outcomes: Self.togetherAcrossElements)
        // The shell, one chunk revealing all three boundaries, and the markers' cleanup.
        let cache = Self.togetherAcrossElements.makeCache()
        let stream = try await renderStream(
            TogetherAcrossElements(), cache: cache, options: RenderOptions(deliveryOrder: .discovery))
        var chunks: [String] = []
        for try await chunk in stream { chunks.append(chunk) }
        #expect(chunks.count == 3)
        #expect(["0.0.0.0.0", "0.0.0.1.0", "0.0.1.0.0"].allSatisfy { chunks[1].contains("$sk(\"\($0)\")") })
    }

    // MARK: Time

    /// Forwards, every fallback shown: `a` times out (its ErrorBoundary catches the error), and
    /// `b`, ready at once, reveals then.
    struct TimedOutFirst: Component {
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .forwards, tail: .visible) {
                    ErrorBoundary {
                        Suspense(timeout: .seconds(1)) {
                            try Chain("a", steps: 1)
                        } fallback: {
                            Text("loading a")
                        }
                    } fallback: { error in
                        Text("a: \(error)")
                    }
                    Row(name: "b", steps: 1)
                }
            }
        }
    }

    @Test func aTimeoutIsAnErrorThatLetsTheNextRowReveal() async {
        for format in [SnapshotFormat.frames, .stream] {
            let clock = TestClock()
            async let snapshot: Void = assertSnapshot(
                of: TimedOutFirst(), as: format, outcomes: ["a1": .pending, "b1": .value("b1")], clock: clock)
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            await snapshot
        }
    }

    /// Forwards: `slow` never answers, `fast` needs no data. At the deadline `slow` keeps its fallback and
    /// `fast`, held behind it, keeps its own: the list's order holds to the end.
    struct SlowFirst: Component {
        let hang: Hang
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .forwards, tail: .visible) {
                    Suspense {
                        try Hanging("slow", hang: hang)
                    } fallback: {
                        Text("loading slow")
                    }
                    Suspense {
                        Text("fast")
                    } fallback: {
                        Text("loading fast")
                    }
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func atTheDeadlineWhatHasNotRevealedKeepsItsFallback(frames: Bool) async throws {
        let clock = TestClock()
        let hang = Hang()
        let cutOff = Locked<[TimeoutError]>([])
        let cache = QueryCache()
        let options = RenderOptions(deliveryOrder: .discovery, clock: clock, deadline: .seconds(1))
            .onDeadline { errors in cutOff.withLock { $0 = errors } }
        let page: String
        if frames {
            // Frames honour fallback timing, which the deadline ends: held rows stay held.
            async let resolved = resolveFrames(SlowFirst(hang: hang), cache: cache, options: options)
            try await waitUntil("the slow query started") { hang.runs.value == 1 }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            page = try await resolved.last!.node.rendered(as: .html)
        } else {
            async let rendered = render(SlowFirst(hang: hang), as: .html, cache: cache, options: options)
            try await waitUntil("the slow query started") { hang.runs.value == 1 }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            page = try await rendered
        }
        #expect(page == "<main>loading slowloading fast</main>")
        #expect(cutOff.withLock { $0.map(\.pendingQueries) } == [["slow"], []])
    }

    // MARK: Ownership

    /// Counts the tokens alive; each row's content and fallback closures capture one.
    final class Token: Sendable {
        let live: Counter
        init(_ live: Counter) {
            self.live = live
            live.increment()
        }
        deinit { _ = live.decrement() }
    }

    struct TrackedRow: Component {
        let name: String
        let steps: Int
        let token: Token
        var body: some Component {
            Suspense {
                try Chain(name, steps: steps + (token.live.value < 0 ? 1 : 0))
            } fallback: {
                Text("loading \(name)\(token.live.value < 0 ? "?" : "")")
            }
        }
    }

    /// `Nested`, with a token captured by every row.
    struct TrackedNested: Component {
        let live: Counter
        var body: some Component {
            SuspenseList(revealOrder: .backwards, tail: .collapsed) {
                TrackedRow(name: "a", steps: 2, token: Token(live))
                SuspenseList(revealOrder: .together) {
                    TrackedRow(name: "b", steps: 3, token: Token(live))
                    TrackedRow(name: "c", steps: 1, token: Token(live))
                }
                TrackedRow(name: "d", steps: 1, token: Token(live))
            }
        }
    }

    /// A list's records refer to boundaries and rows by index: nothing a render with lists
    /// captured outlives it.
    @Test func nothingARenderWithListsCapturedOutlivesIt() async throws {
        let live = Counter()
        let options = RenderOptions(deliveryOrder: .discovery)
        let whole = try await render(
            TrackedNested(live: live), as: .plain, cache: Self.nested.makeCache(), options: options)
        #expect(whole == "a after a2\nb after b3\nc after c1\nd after d1")
        let frames = try await resolveFrames(
            TrackedNested(live: live), cache: Self.nested.makeCache(), options: options)
        #expect(frames.count > 1)
        let stream = try await renderStream(TrackedNested(live: live), cache: Self.nested.makeCache(), options: options)
        for try await _ in stream {}
        #expect(live.value == 0)
    }

    // MARK: The article

    struct Headlines: Component {
        let text: String
        init() throws { text = try resolveValue(key: "headlines") { "Rain" } }
        var body: some Component { Element("h2") { Text(text) } }
    }

    struct Weather: Component {
        let text: String
        init() throws { text = try resolveValue(key: "weather") { "Sunny" } }
        var body: some Component { Element("p") { Text(text) } }
    }

    struct Stocks: Component {
        let text: String
        init() throws { text = try resolveValue(key: "stocks") { "Up" } }
        var body: some Component { Element("p") { Text(text) } }
    }

    /// The RevealingInOrder article's example, as written there.
    struct Front: Component {
        var body: some Component {
            SuspenseList(revealOrder: .forwards, tail: .collapsed) {
                Suspense {
                    try Headlines()
                } fallback: {
                    Text("Loading headlines…")
                }
                Suspense {
                    try Weather()
                } fallback: {
                    Text("Loading weather…")
                }
                Suspense {
                    try Stocks()
                } fallback: {
                    Text("Loading stocks…")
                }
            }
        }
    }

    /// With a collapsed tail, only the next row shows its fallback: one placeholder at a time,
    /// the page growing top to bottom.
    @Test func theArticlesExampleRevealsTopToBottom() async {
        await assertRender(
            of: Front(), as: .frames(.plain),
            outcomes: ["headlines": .value("Rain"), "weather": .value("Sunny"), "stocks": .value("Up")],
            matches: """
                ── frame 1: initial ──
                Loading headlines…
                ── frame 2: after headlines ──
                Rain
                Loading weather…
                ── frame 3: after weather ──
                Rain
                Sunny
                Loading stocks…
                ── frame 4: after stocks ──
                Rain
                Sunny
                Up
                """)
    }

    // MARK: Elements as rows

    /// Backwards, every fallback shown: a heading row, then a `ForEach` whose elements are rows
    /// (`x` after two rounds, `y` after one, `z` after three), then a `for` loop's (`v` after one).
    struct ElementRows: Component {
        var body: some Component {
            Element("main") {
                SuspenseList(revealOrder: .backwards, tail: .visible) {
                    Element("h2") { Text("heading") }
                    ForEach([("x", 2), ("y", 1), ("z", 3)], id: \.0) { row in
                        Row(name: row.0, steps: row.1)
                    }
                    for name in ["v"] {
                        Row(name: name, steps: 1)
                    }
                }
            }
        }
    }

    static let elementRows = outcomes([("x", 2), ("y", 1), ("z", 3), ("v", 1)])

    @Test func eachElementOfAForEachOrALoopIsARow() async {
        await assertSnapshot(of: ElementRows(), as: .frames, outcomes: Self.elementRows)
        await assertSnapshot(of: ElementRows(), as: .stream, outcomes: Self.elementRows)
    }

    // MARK: Long lists

    /// `count` rows from a `ForEach`: the first (forwards) or last (backwards) needs two rounds,
    /// every other row one, so all but one are held until the last round reveals them all.
    struct LongList: Component {
        let order: RevealOrder
        let count: Int
        var body: some Component {
            SuspenseList(revealOrder: order, tail: .visible) {
                ForEach(0..<count) { index in
                    let slow = order == .forwards ? index == 0 : index == count - 1
                    Row(name: "r\(index)-", steps: slow ? 2 : 1)
                }
            }
        }
    }

    static func longOutcomes(_ order: RevealOrder, count: Int) -> FixedOutcomes {
        var chains: [(String, Int)] = []
        for index in 0..<count {
            let slow = order == .forwards ? index == 0 : index == count - 1
            chains.append(("r\(index)-", slow ? 2 : 1))
        }
        return outcomes(chains)
    }

    @Test(arguments: [RevealOrder.forwards, .backwards])
    func aLongListHeldByOneRowRevealsInOneFrame(order: RevealOrder) async throws {
        let options = RenderOptions(deliveryOrder: .discovery)
        // A whole render of five hundred rows.
        let count = 500
        let page = try await render(
            LongList(order: order, count: count), as: .plain, cache: Self.longOutcomes(order, count: count).makeCache(),
            options: options)
        let lines = page.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.first == (order == .forwards ? "r0- after r0-2" : "r0- after r0-1"))
        // Frames of two hundred: each held row changes only its state in `.tree`; the page
        // changes once, when all reveal.
        let frames = try await resolveFrames(
            LongList(order: order, count: 200), cache: Self.longOutcomes(order, count: 200).makeCache(),
            options: options)
        var pages: [String] = []
        for frame in frames {
            let page = try frame.node.rendered(as: .plain)
            if pages.last != page { pages.append(page) }
        }
        #expect(pages.count == 2)
        #expect(pages.last?.split(separator: "\n").count == 200)
    }
}
