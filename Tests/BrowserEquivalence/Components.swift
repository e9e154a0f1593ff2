import SuspenseKit

/// The error of a generated query that fails. Every one reads the same: when several queries
/// under one ErrorBoundary fail, which error it catches depends on which fails first, and the
/// page must not.
struct QueryFailure: Error, CustomStringConvertible {
    let key: String
    var description: String { "a query failed" }
}

/// The component a generated `Node` stands for, built with the public API only.
struct Generated: Component {
    let node: Node

    var body: some Component {
        switch node {
        case .text(let text):
            Text(text)
        case .raw(let html):
            RawHTML(html)
        case .element(let tag, let attributes, let children):
            Element(tag, attributes: attributes) { Nodes(nodes: children) }
        case .query(let query, let children):
            QueryReader(query: query, children: children)
        case .suspense(let content, let fallback):
            Suspense {
                Nodes(nodes: content)
            } fallback: {
                Nodes(nodes: fallback)
            }
        case .errorBoundary(let content, let fallback, let showsError):
            ErrorBoundary {
                Nodes(nodes: content)
            } fallback: { error in
                if showsError { Text("caught \(error) ") }
                Nodes(nodes: fallback)
            }
        }
    }
}

struct Nodes: Component {
    let nodes: [Node]
    var body: some Component {
        ForEach(nodes) { Generated(node: $0) }
    }
}

/// Reads its query, really waiting for it, then shows its children.
struct QueryReader: Component {
    let query: Query
    let children: [Node]

    var body: some Component {
        get throws {
            let query = self.query
            let _: Int = try resolveValue(key: query.key) {
                try await Task.sleep(for: .milliseconds(query.delay))
                if query.fails { throw QueryFailure(key: query.key) }
                return query.delay
            }
            return Nodes(nodes: children)
        }
    }
}
