import Synchronization

@testable import SuspenseKit

/// Components shared by the output tests: every kind of node, every boundary state.
enum Fixtures {
    struct Loaded: Sendable {
        let name: String
    }

    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom <&>" }
    }

    final class Executions: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    struct Card: Component {
        let user: Loaded
        init(id: Int, executions: Executions? = nil) throws {
            user = try resolveValue(key: "user/\(id)") {
                executions?.increment()
                await Task.yield()  // suspends, so that the page shows its fallbacks first
                return Loaded(name: "User \(id) <\"&'>")
            }
        }
        var body: some Component {
            Element("p", attributes: ["class": "card \"x\" & 'y'", "data-id": "1"]) {
                Text("Hi, \(user.name).")
            }
        }
    }

    struct Failing: Component {
        init() throws {
            let _: Int = try resolveValue(key: "fails") {
                await Task.yield()
                throw Boom()
            }
        }
        var body: some Component { Text("never") }
    }

    struct Forever: Component {
        init() throws {
            let _: Int = try resolveValue(key: "forever") { 1 }
        }
        var body: some Component { Text("never") }
    }

    struct Typed: Component {
        let user: Loaded?
        init(user: Loaded?) throws {
            self.user = try resolveValue(user) { Loaded(name: "typed") }
        }
        var body: some Component { Element("em") { Text(user?.name ?? "none") } }
    }

    struct Wrapper<Content: Component>: Component {
        let content: Content
        var body: some Component {
            Element("section") { content }
        }
    }

    struct Page: Component {
        let executions: Executions
        var body: some Component {
            Element("main") {
                Element("h1") { "Title & <more>" }
                Element("img", attributes: ["src": "/a.png", "alt": "A \"B\""])
                Element("br")
                RawHTML("<hr/><b>raw</b>")
                ErrorBoundary {
                    Suspense {
                        try Card(id: 1, executions: executions)
                        try Card(id: 2, executions: executions)
                        try Card(id: 1, executions: executions)
                        Suspense {
                            try Card(id: 3, executions: executions)
                        } fallback: {
                            Text("inner loading")
                        }
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { error in
                    Element("p") { Text("caught: \(error)") }
                }
                ErrorBoundary {
                    Suspense {
                        try Failing()
                    } fallback: {
                        Text("inner loading")
                    }
                } fallback: { error in
                    Element("p") { Text("caught: \(error)") }
                }
                Suspense {
                    try Forever()
                } fallback: {
                    Element("div") { Text("still loading") }
                }
                Suspense { (user: Loaded?) in
                    try Typed(user: user)
                }
                ForEach([String]()) {
                    Text($0)
                } empty: {
                    Text("empty list")
                }
                Group {
                    for index in 0..<3 {
                        if index % 2 == 0 {
                            Element("span") { Text("even \(index)") }
                        } else {
                            Text("odd \(index)")
                        }
                    }
                    Wrapper(content: Text("wrapped\nline\t\u{1}"))
                }
                Element("ul") {
                    ForEach(0..<3) { index in
                        Element("li") { Text("item \(index)") }
                    }
                }
            }
        }
    }
}
