import Testing

@testable import SuspenseKit

/// The ids of every boundary in a resolved tree, in document order.
private func ids(_ node: Node) -> [String] {
    var result: [String] = []
    var stack = [node]
    while let node = stack.popLast() {
        if let id = node.boundaryID { result.append(id.description) }
        stack.append(contentsOf: node.children.reversed())
    }
    return result
}

private struct Card: Component {
    let key: String
    var body: some Component {
        Element("section") {
            Suspense {
                try Loaded(key)
            } fallback: {
                Text("…")
            }
        }
    }
}

/// Suspends while it is made (no Suspense above it: the root waits), then shows a boundary.
private struct SuspendingCard: Component {
    let value: String
    init(_ key: String) throws { value = try resolveValue(key: key) { key } }
    var body: some Component { Suspense { Text(value) } }
}

@Suite struct BoundaryIDTests {
    @Test func idsArePathsOfChildPositions() async throws {
        let page = Group {
            Text("title")
            ErrorBoundary {
                Card(key: "a")
                Card(key: "b")
            }
        }
        let node = try await resolve(page)
        #expect(ids(node) == ["1", "1.0.0.0", "1.1.0.0"])
        #expect(node.children[1].boundaryID?.positions == [1])
    }

    @Test func idsAreTheSameOnEveryRunAndWhetherOrNotAnythingSuspended() async throws {
        let cache = QueryCache()
        let page = Group {
            Card(key: "a")
            Suspense {
                Card(key: "b")
            } fallback: {
                Suspense { Text("x") }
            }
            try SuspendingCard("s")
        }
        let first = try await resolve(page, cache: cache)
        // Every key is cached now: nothing suspends this time.
        let second = try await resolve(page, cache: cache)
        #expect(ids(first) == ids(second))
        #expect(ids(first) == ["0.0.0", "1", "1.0.0.0", "2.0"])
    }

    @Test func addingABoundaryElsewhereRenumbersNothing() async throws {
        let before = try await resolve(
            Group {
                Card(key: "a")
                Card(key: "b")
            })
        let after = try await resolve(
            Group {
                Card(key: "a")
                Card(key: "b")
                ErrorBoundary { Text("new") }
            })
        let nested = try await resolve(
            Group {
                Card(key: "a")
                ErrorBoundary {
                    Card(key: "b")
                } fallback: { _ in
                    Text("wrapped elsewhere")
                }
            })
        #expect(Array(ids(after).prefix(2)) == ids(before))
        #expect(ids(nested).first == ids(before).first)
    }

    @Test func fallbacksAreNumberedApartFromContent() async throws {
        let cache = QueryCache()
        cache.stub(.pending, for: "slow")
        let page = Suspense {
            ErrorBoundary { try Loaded("slow") }
        } fallback: {
            ErrorBoundary { Text("loading") }
        }
        let node = try await resolve(page, cache: cache)
        #expect(ids(node) == ["0", "0.f.0"])
    }

    @Test func theTreeFormatShowsIds() async throws {
        let output = try await render(
            Group {
                Text("x"); Suspense { Text("y") }
            }, as: .tree)
        #expect(output == "\"x\"\nSuspense #1 [resolved]\n└─ \"y\"")
    }

    @Test func idsCompareAndHashByPath() async throws {
        let first = try await resolve(
            Group {
                Text("x"); Suspense { Text("y") }
            })
        let second = try await resolve(
            Group {
                Text("x"); Suspense { Text("z") }
            })
        let a = try #require(first.children[1].boundaryID)
        let b = try #require(second.children[1].boundaryID)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != first.children.first?.boundaryID)
    }
}

/// A Suspense after children that show or not, as a flag says.
struct AfterConditions: Component, Sendable {
    enum Mode { case none, text, nothing, two }
    let mode: Mode
    let name: String?
    let count: Int
    var body: some Component {
        if mode == .text { Text("shown") }
        if mode == .nothing { EmptyComponent() }
        switch mode {
        case .none: Text("none")
        case .text: EmptyComponent()
        case .nothing:
            Text("one")
            Text("two")
        case .two: Group {}
        }
        if let name { Text(name) }
        for index in 0..<count { Text("\(index)") }
        Suspense { Text("boundary") }
    }
}

/// A boundary in each element of a ForEach, by offset or by id.
private struct Listed: Component {
    let keys: [String]
    let byID: Bool
    var body: some Component {
        if byID {
            ForEach(keys, id: \.self) { key in
                if key.hasPrefix("x") { Text("marked") }
                Suspense { Text(key) }
            }
        } else {
            ForEach(keys) { key in
                if key.hasPrefix("x") { Text("marked") }
                Suspense { Text(key) }
            }
        }
    }
}

@Suite struct StaticBoundaryIDTests {
    /// An `if` (rendering something or nothing), a `switch`, an optional and a `for` loop take
    /// their positions whatever they show: the boundary after them keeps its id.
    @Test(arguments: [
        AfterConditions(mode: .none, name: nil, count: 0),
        AfterConditions(mode: .text, name: nil, count: 0),
        AfterConditions(mode: .nothing, name: nil, count: 0),
        AfterConditions(mode: .two, name: "n", count: 0),
        AfterConditions(mode: .none, name: nil, count: 3),
    ])
    func aBoundaryAfterConditionsKeepsItsId(_ page: AfterConditions) async throws {
        #expect(ids(try await resolve(page)) == ["6"])
    }

    @Test func anIfThatTurnsTrueRenumbersNothingInAGoldenTree() async throws {
        let off = try await render(AfterConditions(mode: .none, name: nil, count: 0), as: .tree)
        let on = try await render(AfterConditions(mode: .text, name: "n", count: 2), as: .tree)
        #expect(off.contains("Suspense #6 [resolved]"))
        #expect(on.contains("Suspense #6 [resolved]"))
    }

    /// Both branches of an `if`/`else` start at its position: a boundary in either has one id.
    @Test func branchesShareTheirPositions() async throws {
        struct Either: Component {
            let first: Bool
            var body: some Component {
                if first {
                    Suspense { Text("a") }
                } else {
                    Text("b")
                    Suspense { Text("b") }
                }
                Suspense { Text("after") }
            }
        }
        #expect(ids(try await resolve(Either(first: true))) == ["0", "2"])
        #expect(ids(try await resolve(Either(first: false))) == ["1", "2"])
    }

    /// Elements by offset: an `if` inside an element moves nothing either.
    @Test func forEachElementsKeepTheirIndex() async throws {
        let node = try await resolve(Listed(keys: ["a", "xb", "c"], byID: false))
        #expect(ids(node) == ["0.0.1", "0.1.1", "0.2.1"])
    }

    @Test func forEachWithIdNumbersElementsByTheirId() async throws {
        let before = try await resolve(Listed(keys: ["b", "c"], byID: true))
        let after = try await resolve(Listed(keys: ["a", "xb", "c"], byID: true))
        #expect(ids(before) == ["0.[b].1", "0.[c].1"])
        #expect(ids(after) == ["0.[a].1", "0.[xb].1", "0.[c].1"])
        // The same element, moved: equal ids, though its offset changed.
        let c1 = try #require(ids(of: before).last)
        let c2 = try #require(ids(of: after).last)
        #expect(c1 == c2 && c1.hashValue == c2.hashValue)
        #expect(c1.positions == [0, 1, 1] && c2.positions == [0, 2, 1])
    }

    @Test func aRepeatedIdFallsBackToTheOffset() async throws {
        let node = try await resolve(Listed(keys: ["a", "b", "a"], byID: true))
        #expect(ids(node) == ["0.[a].1", "0.[b].1", "0.2.1"])
    }

    /// An element that suspends, or is evaluated later because the stack is deep, keeps the
    /// id its element has: the key is read while the element is numbered.
    @Test(arguments: [1, 2, 48])
    func suspendedAndDeferredElementsKeepTheirId(levelsOnStack: Int) async throws {
        struct Page: Component {
            var body: some Component {
                Suspense {
                    ForEach(["k1", "k2"], id: \.self) { key in
                        try SuspendingCard(key)
                    }
                } fallback: {
                    Text("…")
                }
            }
        }
        var options = RenderOptions()
        options.levelsOnStack = levelsOnStack
        let node = try await resolve(Page(), options: options)
        #expect(ids(node) == ["0", "0.0.[k1].0.0", "0.0.[k2].0.0"])
    }

    /// A boundary whose own expression suspended is made in the place the expression had, as
    /// it is when nothing suspends (it took one level more).
    @Test func aBoundaryMadeOnceItsExpressionResolvedKeepsItsPlace() async throws {
        func boundary(_ key: String) throws -> some Component {
            let value: String = try resolveValue(key: key) {
                await Task.yield()
                return key
            }
            return Suspense { Text(value) }
        }
        let cache = QueryCache()
        let page = Group {
            Text("x")
            try boundary("k")
        }
        let suspended = try await resolve(page, cache: cache)
        let cached = try await resolve(page, cache: cache)
        #expect(ids(suspended) == ["1"])
        #expect(ids(cached) == ["1"])
    }

    @Test func idsFromDataAreEncoded() {
        #expect(ElementKeys<[Int]>.encode("user-1") == "[user-1]")
        #expect(ElementKeys<[Int]>.encode("a--b->") == "[a-%2Db-%3E]")
        #expect(ElementKeys<[Int]>.encode("1.2 \"q\"'&<]é") == "[1%2E2%20%22q%22%27%26%3C%5D%C3%A9]")
        #expect(ElementKeys<[Int]>.encode("%") == "[%25]")
    }

    /// Ids from data with characters that would break a comment, an attribute or a script
    /// string: every marker, template and swap call of the stream carries them encoded.
    @Test func awkwardIdsAreSafeInStreamedMarkup() async throws {
        struct Page: Component {
            let keys: [String]
            let gates: Gates
            var body: some Component {
                Element("ul") {
                    ForEach(keys, id: \.self) { key in
                        Element("li") {
                            Suspense {
                                try Gated(key, gates: gates)
                            } fallback: {
                                Text("…")
                            }
                        }
                    }
                }
            }
        }
        let keys = ["a--b", "x-->y", "1.2", "q\"'&", "</script>", "][", "é"]
        let encoded = ["a-%2Db", "x-%2D%3Ey", "1%2E2", "q%22%27%26", "%3C%2Fscript%3E", "%5D%5B", "%C3%A9"]
        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(Page(keys: keys, gates: gates)))
        let shell = try await chunks.next()
        for key in keys { gates.open(key) }
        var page = shell
        while let chunk = try await chunks.iterator.next() { page += chunk }
        for id in encoded.map({ "0.0.[\($0)].0.0" }) {
            #expect(shell.contains("<!--sk:\(id)-->…<!--/sk:\(id)-->"))
            #expect(page.contains("</template><script>$sk(\"\(id)\")</script>") || page.contains("}$sk(\"\(id)\")"))
        }
        // Every comment ends where its marker does: no id closed it early or nested one.
        let comments = page.components(separatedBy: "<!--").dropFirst()
        #expect(comments.count == 2 * keys.count)
        for comment in comments {
            let text = try #require(comment.components(separatedBy: "-->").first)
            #expect(!text.contains("--") && !text.contains(">") && !text.contains("\""))
        }
    }
}

/// The ids of every boundary in a resolved tree, in document order.
private func ids(of node: Node) -> [BoundaryID] {
    var result: [BoundaryID] = []
    var stack = [node]
    while let node = stack.popLast() {
        if let id = node.boundaryID { result.append(id) }
        stack.append(contentsOf: node.children.reversed())
    }
    return result
}
