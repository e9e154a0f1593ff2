public import SuspenseKit

/// A paragraph with the value of a gated query.
public struct Gated: Component {
    let value: String

    public init(_ key: String, gates: Gates) throws {
        value = try resolveValue(key: key) { try await gates.value(key) }
    }

    public var body: some Component { Element("p") { Text(value) } }
}

/// A whole document: a heading, then one Suspense per key around its gated query, with the
/// fallback "waiting for KEY". No ErrorBoundary: a gate opened with a failure is a late error
/// that nothing catches.
public struct SlowPage: Component {
    let gates: Gates
    let keys: [String]

    public init(gates: Gates, keys: [String]) {
        self.gates = gates
        self.keys = keys
    }

    public var body: some Component {
        Element("html") {
            Element("body") {
                Element("h1") { Text("Shell") }
                ForEach(keys) { key in
                    Suspense {
                        try Gated(key, gates: gates)
                    } fallback: {
                        Text("waiting for \(key)")
                    }
                }
            }
        }
    }
}

/// A whole document whose shell waits on the query of `shell`, with one Suspense around the
/// query of `never` after it.
public struct GatedShellPage: Component {
    let gates: Gates

    public init(gates: Gates) { self.gates = gates }

    public var body: some Component {
        Element("html") {
            Element("body") {
                try Gated("shell", gates: gates)
                Suspense {
                    try Gated("never", gates: gates)
                } fallback: {
                    Text("waiting for never")
                }
            }
        }
    }
}

/// The error of `FailingCard`'s query, whose description must not reach the client.
public struct ShellFailure: Error, CustomStringConvertible {
    public var description: String { "the <database> is down" }

    public init() {}
}

/// A component whose query fails.
public struct FailingCard: Component {
    public init() throws {
        let _: String = try resolveValue(key: "shell") {
            await Task.yield()
            throw ShellFailure()
        }
    }

    public var body: some Component { Text("never") }
}

/// A page whose shell fails: a query outside every Suspense fails, and no ErrorBoundary is there.
public struct FailingShell: Component {
    public init() {}

    public var body: some Component {
        Element("main") { try FailingCard() }
    }
}

/// A product page whose data decides the response from inside the tree: product `missing`
/// answers 404 with `Cache-Control: no-store`, product `old` redirects to `/products/new`, any
/// other shows its name. After the heading, a Suspense around the query of `late` whose content
/// declares 410: still waiting when the shell is sent, so the declaration is withdrawn from the
/// head, and reported once it is revealed.
public struct ProductPage: Component {
    let id: String
    let gates: Gates

    public init(id: String, gates: Gates) {
        self.id = id
        self.gates = gates
    }

    public var body: some Component {
        Element("html") {
            Element("body") {
                if id == "missing" {
                    Element("h1") { Text("No such product") }
                        .httpStatus(.notFound)
                        .responseHeader("Cache-Control", "no-store")
                } else if id == "old" {
                    Element("h1") { Text("Moved") }.redirect(to: "/products/new")
                } else {
                    Element("h1") { Text("Product \(id)") }
                }
                Suspense {
                    try Gated("late", gates: gates).httpStatus(.gone)
                } fallback: {
                    Text("waiting for late")
                }
            }
        }
    }
}
