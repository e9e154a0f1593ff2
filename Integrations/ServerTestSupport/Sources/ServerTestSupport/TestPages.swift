import SuspenseKit

/// A paragraph with the value of a gated query.
struct Gated: Component {
    let value: String

    init(_ key: String, gates: Gates) throws {
        value = try resolveValue(key: key) { try await gates.value(key) }
    }

    var body: some Component { Element("p") { Text(value) } }
}

/// A whole document: a heading, then one Suspense per key around its gated query, with the
/// fallback "waiting for KEY". No ErrorBoundary: a gate opened with a failure is a late error
/// that nothing catches.
struct SlowPage: Component {
    let gates: Gates
    let keys: [String]

    var body: some Component {
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
struct GatedShellPage: Component {
    let gates: Gates

    var body: some Component {
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

struct ShellFailure: Error, CustomStringConvertible {
    var description: String { "the <database> is down" }
}

/// A component whose query fails.
struct FailingCard: Component {
    init() throws {
        let _: String = try resolveValue(key: "shell") {
            await Task.yield()
            throw ShellFailure()
        }
    }

    var body: some Component { Text("never") }
}

/// A page whose shell fails: a query outside every Suspense fails, and no ErrorBoundary is there.
struct FailingShell: Component {
    var body: some Component {
        Element("main") { try FailingCard() }
    }
}
