import Testing

@testable import SuspenseKit

/// A text whose query returns only once `total` queries have started: a render of several
/// finishes only if their queries run at the same time.
private func rendezvous(_ key: String, total: Int, started: Counter) throws -> String {
    try resolveValue(key: key) {
        started.increment()
        try await waitUntil("all \(total) queries to start") { started.value >= total }
        return key
    }
}

/// A value loaded after one suspension; counts how many times it was asked for.
private func loaded(_ key: String, asked: Counter) throws -> String {
    asked.increment()
    return try resolveValue(key: key) {
        await Task.yield()
        return key
    }
}

private final class Tracked: Sendable {
    let live: Counter
    init(_ live: Counter) {
        self.live = live
        live.increment()
    }
    deinit { live.decrement() }
}

private struct Named: Component {
    let name: String
    init(_ name: String, log: Log) {
        log.append(name)
        self.name = name
    }
    var body: some Component { Text(name) }
}

/// `Text` and `Element` written in a builder are made when the closure runs (no closure kept
/// per child); what making one throws is kept and handled where the resolver reaches it, as
/// though making it then had thrown.
@Suite struct MadeChildTests {
    @Test func aTextIsMadeWhenItsClosureRunsAComponentWhenTheResolverReachesIt() async throws {
        let evaluated = Counter()
        let log = Log()
        let group = Group {
            Text("text \(evaluated.increment())")
            Named("component", log: log)
        }
        // The text's expression ran as the group was made; the component's initializer did not.
        #expect(evaluated.value == 1)
        #expect(log.all.isEmpty)
        #expect(try await html(group) == "text 1component")
        #expect(evaluated.value == 1)
        #expect(log.all == ["component"])
    }

    @Test func siblingTextsThatSuspendStartTheirQueriesAtOnce() async throws {
        let started = Counter()
        let page = Suspense {
            Element("p") {
                Text(try rendezvous("a", total: 3, started: started))
                Text("-")
                Text(try rendezvous("b", total: 3, started: started))
                Element("b") { Text(try rendezvous("c", total: 3, started: started)) }
            }
        }
        #expect(try await html(page) == "<p>a-b<b>c</b></p>")
        #expect(started.value == 3)
    }

    @Test func eachTextThatSuspendsWaitsAloneAndThePendingTreeListsEveryQuery() async throws {
        let asked = Counter()
        let page = Suspense {
            Element("p") {
                Text("before ")
                Text(try loaded("k1", asked: asked))
                Text(try loaded("k2", asked: asked))
            }
        } fallback: {
            Text("Loading…")
        }
        let frames = try await resolveFrames(page)
        let first = try frames[0].node.rendered(as: .tree)
        #expect(first.contains("Suspense #0 [pending: k1, k2]"), "\(first)")
        #expect(try frames.last?.node.rendered(as: .plain) == "before k1k2")
        // Each text was made once as its element was made, and once more when its own query
        // had run: the element and its other children were not made again.
        #expect(asked.value == 4)
    }

    @Test func anElementWhoseStatementSuspendsIsMadeAgainAloneKeepingWhatCameBefore() async throws {
        let asked = Counter()
        let page = Suspense {
            Element("ul") {
                Element("li") { Text("first") }
                Element("li") {
                    let value = try loaded("second", asked: asked)
                    Text(value)
                }
                Element(try loaded("x-tag", asked: asked)) { Text("third") }
            }
        }
        #expect(try await html(page) == "<ul><li>first</li><li>second</li><x-tag>third</x-tag></ul>")
        #expect(asked.value == 4)
    }

    @Test func anErrorThrownInATextReachesTheErrorBoundaryAtTheSamePath() async throws {
        struct Card: Component {
            var body: some Component {
                Element("p") { Text(try { () throws -> String in throw TestFailure("no title") }()) }
            }
        }
        let caught = Log()
        let page = ErrorBoundary {
            Card()
        } fallback: { error in
            Text("caught: \(error)")
        }
        let options = RenderOptions().onCaughtError { caught.append($0.path.joined(separator: "/")) }
        #expect(try await render(page, as: .html, options: options) == "caught: no title")
        #expect(caught.all == ["ErrorBoundary/Card/Text"])
    }

    @Test func boundaryPositionsCountTextsAndElementsAsBefore() async throws {
        let page = Group {
            Text("a")
            "a literal"
            Element("i") { Text("b") }
            ForEach(0..<2) { index in
                Element("p") {
                    Text("\(index)")
                    Suspense { Text("x") }
                }
            }
            Suspense { Text("y") }
        }
        var ids: [String] = []
        func collect(_ node: Node) {
            if let id = node.boundaryID { ids.append("\(id)") }
            node.children.forEach(collect)
        }
        collect(try await resolve(page))
        #expect(ids == ["2.0.0.1", "2.1.0.1", "3"])
    }

    @Test func aFailedChildKeepsItsClosureOnlyUntilTheRenderEnds() async throws {
        let live = Counter()
        do {
            let tracked = Tracked(live)
            let page = Suspense {
                Element("p") {
                    Text(
                        try {
                            _ = tracked; return try loaded("held", asked: Counter())
                        }())
                }
            }
            #expect(try await html(page) == "<p>held</p>")
        }
        #expect(live.value == 0)
    }
}
