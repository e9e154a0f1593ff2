import Testing

@testable import SuspenseKit

private struct Conditional: Component {
    let flag: Bool
    let choice: Int
    let optional: String?
    let items: [String]

    var body: some Component {
        if flag {
            Text("yes")
        } else {
            Text("no")
        }
        switch choice {
        case 0: Text("zero")
        case 1: Element("b") { Text("one") }
        default: EmptyComponent()
        }
        if let optional {
            Text(optional)
        }
        for item in items {
            Element("i") { Text(item) }
        }
        "a literal"
    }
}

private struct Sibling: Component {
    let name: String
    init(_ name: String, log: Log, fail: Bool = false) throws {
        log.append(name)
        if fail { throw TestFailure("\(name) failed") }
        self.name = name
    }
    var body: some Component { Text(name) }
}

@Suite struct BuilderTests {
    @Test func controlFlowInsideTheBuilder() async throws {
        let output = try await html(Conditional(flag: true, choice: 1, optional: "opt", items: ["x", "y"]))
        #expect(output == "yes<b>one</b>opt<i>x</i><i>y</i>a literal")
        let other = try await html(Conditional(flag: false, choice: 0, optional: nil, items: []))
        #expect(other == "nozeroa literal")
        let last = try await html(Conditional(flag: false, choice: 7, optional: nil, items: ["z"]))
        #expect(last == "no<i>z</i>a literal")
    }

    @Test func childrenAreEvaluatedOneByOneByTheResolverNotWhenTheBodyIsBuilt() async throws {
        let log = Log()
        let group = Group {
            try Sibling("a", log: log)
            try Sibling("b", log: log)
        }
        #expect(log.all.isEmpty)
        _ = try await html(group)
        #expect(log.all == ["a", "b"])
    }

    @Test func aFailingChildDoesNotStopItsSiblingsFromBeingEvaluated() async throws {
        let log = Log()
        let page = Group {
            ErrorBoundary {
                try Sibling("a", log: log, fail: true)
            } fallback: { error in
                Text("caught: \(error)")
            }
            try Sibling("b", log: log)
        }
        #expect(try await html(page) == "caught: a failedb")
        #expect(log.all == ["a", "b"])
    }

    @Test func groupsAndForEachLeaveNoNodeOfTheirOwn() async throws {
        let page = Element("ul") {
            Group {
                ForEach(1...3) { number in Element("li") { Text("\(number)") } }
            }
        }
        #expect(
            try await tree(page) == """
                <ul>
                ├─ <li>
                │  └─ "1"
                ├─ <li>
                │  └─ "2"
                └─ <li>
                   └─ "3"
                """)
    }

    @Test func forEachShowsItsEmptyFallbackOnlyForAnEmptyCollection() async throws {
        func list(_ items: [String]) -> some Component {
            Element("ul") {
                ForEach(items) { item in
                    Element("li") { Text(item) }
                } empty: {
                    Text("Nothing here.")
                }
            }
        }
        #expect(try await html(list([])) == "<ul>Nothing here.</ul>")
        #expect(try await html(list(["a"])) == "<ul><li>a</li></ul>")
        #expect(try await html(ForEach(0..<0) { Text("\($0)") }) == "")
        #expect(try await html(ForEach(0..<3) { Text("\($0)") }) == "012")
    }
}
