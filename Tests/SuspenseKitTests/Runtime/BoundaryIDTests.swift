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
