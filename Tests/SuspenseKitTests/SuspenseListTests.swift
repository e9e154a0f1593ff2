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

    /// Whatever the order, the final page is the one without a list.
    @Test(arguments: orders, tails)
    func theFinalPageIsTheSame(order: RevealOrder, tail: RevealTail) async throws {
        let cache = Self.lastFirst.makeCache()
        let options = RenderOptions(deliveryOrder: .discovery)
        let html = try await render(LastFirst(order: order, tail: tail), as: .html, cache: cache, options: options)
        #expect(html == "<main><p>a after a2</p><p>b after b3</p><p>c after c1</p></main>")
    }
}
