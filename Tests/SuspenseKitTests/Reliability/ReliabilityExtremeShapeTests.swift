import Testing

@testable import SuspenseKit

/// A chain of user components, `depth` levels deep.
private struct ReliabilityChain: Component {
    let depth: Int
    var body: some Component {
        if depth > 1 { ReliabilityChain(depth: depth - 1) } else { Text("end") }
    }
}

/// Components and elements alternating: each level is a component holding a `div`.
private struct ReliabilityNest: Component {
    let levels: Int
    var body: some Component {
        Element("div") {
            if levels > 1 { ReliabilityNest(levels: levels - 1) } else { Text("leaf") }
        }
    }
}

/// A component that contains itself without end.
private struct ReliabilityEndless: Component {
    var body: some Component { ReliabilityEndless() }
}

private struct ReliabilityMany: Component {
    let count: Int
    var body: some Component {
        ForEach(0..<count) { Text("\($0)") }
    }
}

/// One Suspense per item, each waiting on its own query, or nested inside each other.
private struct ReliabilityLoaded: Component {
    let key: String
    let ledger: ReliabilityQueryLedger
    let value: String
    init(key: String, ledger: ReliabilityQueryLedger) throws {
        self.key = key
        self.ledger = ledger
        value = try resolveValue(key: key) {
            try await ledger.run(key) {
                await Task.yield(); return "v:\(key)"
            }
        }
    }
    var body: some Component { Text(value) }
}

/// Suspends on a query, then shows a 10,000-deep chain.
private struct ReliabilityDeepAfterLoad: Component {
    let ledger: ReliabilityQueryLedger
    var body: some Component {
        get throws {
            _ = try resolveValue(key: "reveal") { try await ledger.run("reveal") { "ok" } }
            return ReliabilityChain(depth: 10_000)
        }
    }
}

private struct ReliabilityNestedSuspense: Component {
    let levels: Int
    let ledger: ReliabilityQueryLedger
    var body: some Component {
        Suspense {
            try ReliabilityLoaded(key: "k\(levels)", ledger: ledger)
            if levels > 1 { ReliabilityNestedSuspense(levels: levels - 1, ledger: ledger) }
        } fallback: {
            Text("loading \(levels)")
        }
    }
}

/// Shapes far outside the usual: deep, wide, and many boundaries at once. A pass keeps a bounded
/// number of levels on the stack and defers the rest (Resolver+Pass), and everything else walks
/// trees iteratively.
struct ReliabilityExtremeShapeTests {
    @Test func tenThousandDeepChainsRenderToEveryFormat() async throws {
        let chain = try await resolve(ReliabilityChain(depth: 10_000))
        let nest = try await resolve(ReliabilityNest(levels: 5_000))  // 10,000 nodes deep
        let elements = try await resolve(ReliabilityDivPage(depth: 10_000))
        // Levels: the root fragment, the nodes of the chain, the leaf text.
        for (node, levels, leaf) in [(chain, 10_002, "end"), (nest, 10_002, "leaf"), (elements, 10_003, "leaf")] {
            #expect(node.depth == levels)
            #expect(try node.rendered(as: .plain) == leaf)
            #expect(try node.rendered(as: .html).hasSuffix(node == chain ? "end" : "</div>"))
            // Indented formats are quadratic in depth by nature (tens of MB here): check their ends.
            let pretty = try node.rendered(as: .html(pretty: true))
            #expect(node == chain ? pretty == "end" : pretty.hasSuffix("</div>") && pretty.utf8.count > 10_000 * 5_000)
            let tree = try node.rendered(as: .tree)
            #expect(tree.hasSuffix("└─ \"\(leaf)\"") && tree.utf8.count > 10_000 * 10_000)
        }
        #expect(try nest.rendered(as: .html).utf8.count == 5_000 * "<div></div>".utf8.count + "leaf".utf8.count)
    }

    @Test func hundredThousandDeepChainsResolveCompareAndTearDown() async throws {
        // 99,990 components under the page: just inside the default limit of 100,000 levels.
        // The `.tree` format is left out: its indentation makes it quadratic in depth (~15 GB here).
        var chain: Node? = try await resolve(ReliabilityChain(depth: 99_990))
        let again = try await resolve(ReliabilityChain(depth: 99_990))
        #expect(chain == again)
        #expect(chain?.hashValue == again.hashValue)
        #expect(try chain?.rendered(as: .plain) == "end")
        #expect(try chain?.rendered(as: .html(pretty: true)) == "end")
        let nest = try await resolve(ReliabilityNest(levels: 49_990))
        #expect(try nest.rendered(as: .html).utf8.count == 49_990 * "<div></div>".utf8.count + "leaf".utf8.count)
        // Tears down 100,000 levels on this cooperative thread: a teardown that recursed would
        // overflow its stack and crash the test process here.
        chain = nil
    }

    @Test func deepTreesInsideBoundariesAndUnderQueries() async throws {
        // A first pass far deeper than a pass keeps on the stack defers its subtrees; a boundary
        // on the way never sees that, and no query runs twice.
        let ledger = ReliabilityQueryLedger()
        let caught = try await resolve(
            ErrorBoundary {
                ReliabilityChain(depth: 5_000)
                Suspense { try ReliabilityLoaded(key: "bottom", ledger: ledger) }
            } fallback: { error in
                Text("caught: \(error)")
            }
        )
        #expect(try caught.rendered(as: .plain) == "endv:bottom")
        #expect(ledger.starts == ["bottom": 1] && ledger.live == 0)
        // A shallow first pass with a query, whose result reveals a deep tree.
        let revealed = try await resolve(
            Suspense {
                try ReliabilityLoaded(key: "top", ledger: ledger)
                ReliabilityDeepAfterLoad(ledger: ledger)
            }
        )
        #expect(try revealed.rendered(as: .plain) == "v:topend")
        #expect(ledger.live == 0)
    }

    @Test func nestingBeyondTheLimitFailsWithAClearError() async throws {
        let error = try await #require(throws: RenderError.self) { try await resolve(ReliabilityEndless()) }
        #expect(error.underlying as? SuspenseError == .tooDeep(component: "ReliabilityEndless", limit: 100_000))
        #expect(error.path.count == 100_001)
        #expect("\(error)".contains("nested more than 100000 levels deep"))

        // Routed like any error: the nearest ErrorBoundary catches it.
        let caught = try await resolve(
            ErrorBoundary {
                ReliabilityEndless()
            } fallback: { error in
                Text("caught: \(error)")
            },
            options: RenderOptions(maxDepth: 50)
        )
        #expect(
            try caught.rendered(as: .plain).hasPrefix("caught: ReliabilityEndless is nested more than 50 levels deep"))
        // Elements count as levels too.
        let elements = try await #require(throws: RenderError.self) {
            try await resolve(ReliabilityNest(levels: 30), options: RenderOptions(maxDepth: 51))
        }
        #expect(elements.underlying as? SuspenseError == .tooDeep(component: "<div>", limit: 51))
    }

    @Test func aMillionSiblingsRender() async throws {
        let node = try await resolve(ReliabilityMany(count: 1_000_000))
        #expect(node.children.first?.children.count == 1_000_000)
        let plain = try node.rendered(as: .plain)
        #expect(plain.hasPrefix("0123") && plain.hasSuffix("999999"))
        #expect(try node.rendered(as: .html).utf8.count == plain.utf8.count)
        #expect(try node.rendered(as: .tree).utf8.count > 1_000_000)
    }

    @Test func tenThousandBoundariesSuspendingAtOnceResolve() async throws {
        let ledger = ReliabilityQueryLedger()
        let node = try await resolve(
            ForEach(0..<10_000) { index in
                Suspense {
                    try ReliabilityLoaded(key: "k\(index)", ledger: ledger)
                } fallback: {
                    Text("loading")
                }
            }
        )
        #expect(node.children.count == 10_000)
        #expect(node.children.allSatisfy { $0.kind == .suspense(.resolved) })
        #expect(try node.rendered(as: .plain) == (0..<10_000).map { "v:k\($0)" }.joined())
        #expect(ledger.live == 0 && ledger.finished == 10_000)
        #expect(ledger.starts.values.allSatisfy { $0 == 1 })
    }

    @Test func tenThousandNestedSuspendingBoundariesResolve() async throws {
        let ledger = ReliabilityQueryLedger()
        let node = try await resolve(ReliabilityNestedSuspense(levels: 10_000, ledger: ledger))
        let plain = try node.rendered(as: .plain)
        #expect(plain.hasPrefix("v:k10000v:k9999") && plain.hasSuffix("v:k1"))
        #expect(!plain.contains("loading"))
        #expect(ledger.live == 0 && ledger.finished == 10_000)
    }
}

/// `depth` nested `div`s and nothing else: no component between them. Type-erased like the
/// generated trees' `_Dyn`, and carrying a count rather than a nested description, whose release
/// would itself recurse once per level.
private struct _ReliabilityDivs: Component {
    typealias Body = Never
    let depth: Int

    static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let depth = component.depth
        let element = Element("div") {
            if depth > 1 { _ReliabilityDivs(depth: depth - 1) } else { Text("leaf") }
        }
        try type(of: element)._resolve(element, in: resolver)
    }
}

private struct ReliabilityDivPage: Component {
    let depth: Int
    var body: some Component { _ReliabilityDivs(depth: depth) }
}

extension Node {
    /// The number of levels, counted without recursion.
    fileprivate var depth: Int {
        var deepest = 0
        var stack = [(self, 1)]
        while let (node, level) = stack.popLast() {
            deepest = max(deepest, level)
            stack.append(contentsOf: node.children.map { ($0, level + 1) })
        }
        return deepest
    }
}
