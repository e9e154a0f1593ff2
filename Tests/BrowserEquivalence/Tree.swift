import SuspenseKit

/// A generated tree: what the components in `Components.swift` build at run time.
indirect enum Node: Sendable {
    case text(String)
    case element(String, [Attribute], [Node])
    /// Reads `query.key` (waiting `query.delay` milliseconds, failing if `query.fails`), then
    /// shows the children.
    case query(Query, [Node])
    case suspense([Node], fallback: [Node])
    /// The fallback shows `caught <error>` first when `showsError` (only where text may go).
    case errorBoundary([Node], fallback: [Node], showsError: Bool)
    /// Markup written as is: the doctype.
    case raw(String)
}

struct Query: Sendable {
    let key: String
    let delay: Int
    let fails: Bool
}

/// SplitMix64: small, seedable, the same on every platform.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    mutating func weighted<T>(_ items: [(Int, T)]) -> T {
        var roll = int(0...(items.map(\.0).reduce(0, +) - 1))
        for (weight, item) in items {
            if roll < weight { return item }
            roll -= weight
        }
        return items[items.count - 1].1
    }
}

/// Builds trees that put boundaries where HTML is hard on them: first in the page, directly in
/// `body`, in tables (with and without `tbody`), rows and lists, in `title` and `textarea`, nested,
/// failing late, reopening (a resolved Suspense whose ErrorBoundary later catches and whose
/// fallback suspends), beside elements whose ids look like boundary markers. Every tree is valid
/// HTML (each place gets the content its parent allows), and every failing query has an
/// ErrorBoundary above it, so that `render` always succeeds.
struct TreeGenerator {
    /// Where generated nodes go: what the parent element allows.
    enum Place: String {
        case flow, phrasing, list, table, tableBody, row, text
    }

    private var random: SeededRandom
    private var budget: Int
    private var nextKey = 0
    private var nextLabel = 0
    /// What the tree holds that only the generator knows (see `Node.features(of:)` for the rest).
    private(set) var features: Set<String> = []

    /// The seed of tree `index` of a run seeded `seed`: each tree is made alone, so that
    /// `--only K` makes exactly the tree the whole run made.
    static func treeSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var mixer = SeededRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        budget = 0
        budget = random.weighted([(3, 4...12), (4, 12...30), (2, 30...60)]).randomElement(using: &random)!
    }

    /// The root's children.
    mutating func makeTree() -> [Node] {
        if random.chance(0.35) {
            // A fragment: no html element; half of the time it begins with a boundary.
            var nodes: [Node] = []
            if random.chance(0.5) {
                nodes.append(boundary(.flow, depth: 1, insideErrorBoundary: false))
            }
            nodes += list(.flow, depth: 1, insideErrorBoundary: false, count: random.int(1...4))
            return nodes
        }
        var head: [Node] = [.raw("<meta charset=\"utf-8\">")]
        if random.chance(0.6) {
            let title: [Node]
            if random.chance(0.6) {
                title = [.text("Page ")] + [boundary(.text, depth: 2, insideErrorBoundary: false)]
            } else {
                title = [.text("Page \(label())")]
            }
            head.append(.element("title", [], title))
        }
        var body: [Node] = []
        if random.chance(0.4) {
            body.append(boundary(.flow, depth: 2, insideErrorBoundary: false))
        }
        body += list(.flow, depth: 2, insideErrorBoundary: false, count: random.int(1...5))
        let html = Node.element(
            "html", [Attribute("lang", "en")], [.element("head", [], head), .element("body", attributes(), body)])
        if random.chance(0.5) {
            return [.raw("<!DOCTYPE html>"), html]
        }
        return [html]
    }

    static let markerPlaceholder = "\u{1}marker"

    /// The tree with each marker placeholder replaced by one of `names` (the boundary names the
    /// tree's stream uses, as `sk:0.1` or `0.1`), chosen by `seed`.
    static func withMarkerLikeIDs(_ nodes: [Node], names: [String], seed: UInt64) -> [Node] {
        var random = SeededRandom(seed: seed)
        let names = names.isEmpty ? ["sk:0", "sk:1", "0"] : names
        func replace(_ node: Node) -> Node {
            switch node {
            case .text, .raw: return node
            case .element(let tag, let attributes, let children):
                let attributes = attributes.map {
                    $0.value == markerPlaceholder ? Attribute($0.name, random.pick(names)) : $0
                }
                return .element(tag, attributes, children.map(replace))
            case .query(let query, let children): return .query(query, children.map(replace))
            case .suspense(let content, let fallback):
                return .suspense(content.map(replace), fallback: fallback.map(replace))
            case .errorBoundary(let content, let fallback, let showsError):
                return .errorBoundary(content.map(replace), fallback: fallback.map(replace), showsError: showsError)
            }
        }
        return nodes.map(replace)
    }

    private mutating func label() -> String {
        nextLabel += 1
        return "t\(nextLabel)"
    }

    private mutating func query(fails: Bool, delay: ClosedRange<Int>) -> Query {
        nextKey += 1
        return Query(key: "q\(nextKey)", delay: random.int(delay), fails: fails)
    }

    /// Attributes, sometimes an id that looks like a boundary's marker, template or region name:
    /// a placeholder that `withMarkerLikeIDs` replaces with the name of a boundary of the tree.
    private mutating func attributes() -> [Attribute] {
        var result: [Attribute] = []
        if random.chance(0.3) {
            result.append(Attribute("id", Self.markerPlaceholder))
        }
        if random.chance(0.2) { result.append(Attribute("class", "c\(random.int(0...3))")) }
        return result
    }

    private mutating func list(_ place: Place, depth: Int, insideErrorBoundary: Bool, count: Int? = nil) -> [Node] {
        let count = count ?? random.weighted([(1, 0), (4, 1), (4, 2), (2, 3)])
        var result: [Node] = []
        for _ in 0..<count where budget > 0 || result.isEmpty {
            result.append(node(place, depth: depth, insideErrorBoundary: insideErrorBoundary))
        }
        return result
    }

    /// One node fit for `place`.
    private mutating func node(_ place: Place, depth: Int, insideErrorBoundary: Bool) -> Node {
        budget -= 1
        let leaf = budget <= 0 || depth > 9
        if leaf { return filler(place) }
        enum Kind { case filler, element, query, boundary }
        switch random.weighted([(3, Kind.filler), (4, .element), (3, .query), (4, .boundary)]) {
        case .filler:
            return filler(place)
        case .element:
            return element(place, depth: depth, insideErrorBoundary: insideErrorBoundary)
        case .query:
            let fails = insideErrorBoundary && random.chance(0.2)
            return .query(
                query(fails: fails, delay: 0...6),
                list(place, depth: depth + 1, insideErrorBoundary: insideErrorBoundary, count: random.int(0...2))
                    + [filler(place)])
        case .boundary:
            return boundary(place, depth: depth, insideErrorBoundary: insideErrorBoundary)
        }
    }

    /// A leaf fit for `place`: text where text may go, else the smallest element there.
    private mutating func filler(_ place: Place) -> Node {
        let text = label()
        switch place {
        case .flow, .phrasing, .text: return .text(text + " ")
        case .list: return .element("li", attributes(), [.text(text)])
        case .table, .tableBody: return .element("tr", [], [.element("td", [], [.text(text)])])
        case .row: return .element("td", attributes(), [.text(text)])
        }
    }

    private mutating func element(_ place: Place, depth: Int, insideErrorBoundary: Bool) -> Node {
        let inside = insideErrorBoundary
        switch place {
        case .flow:
            enum Kind { case div, p, list, table, textarea }
            switch random.weighted([(4, Kind.div), (3, .p), (2, .list), (2, .table), (1, .textarea)]) {
            case .div:
                return .element(
                    random.pick(["div", "section", "article"]), attributes(),
                    list(.flow, depth: depth + 1, insideErrorBoundary: inside))
            case .p:
                return .element("p", attributes(), list(.phrasing, depth: depth + 1, insideErrorBoundary: inside))
            case .list:
                return .element(
                    random.pick(["ul", "ol"]), attributes(), list(.list, depth: depth + 1, insideErrorBoundary: inside))
            case .table:
                if random.chance(0.5) {
                    return .element("table", attributes(), list(.table, depth: depth + 1, insideErrorBoundary: inside))
                }
                return .element(
                    "table", attributes(),
                    [.element("tbody", [], list(.tableBody, depth: depth + 2, insideErrorBoundary: inside))])
            case .textarea:
                return .element("textarea", attributes(), list(.text, depth: depth + 1, insideErrorBoundary: inside))
            }
        case .phrasing:
            return .element(
                random.pick(["span", "b", "em"]), attributes(),
                list(.phrasing, depth: depth + 1, insideErrorBoundary: inside))
        case .list:
            return .element("li", attributes(), list(.flow, depth: depth + 1, insideErrorBoundary: inside))
        case .table, .tableBody:
            return .element(
                "tr", attributes(), list(.row, depth: depth + 1, insideErrorBoundary: inside, count: random.int(1...3)))
        case .row:
            return .element(
                random.pick(["td", "th"]), attributes(), list(.flow, depth: depth + 1, insideErrorBoundary: inside))
        case .text:
            return filler(.text)
        }
    }

    /// A Suspense or an ErrorBoundary, nested, failing late or reopening.
    private mutating func boundary(_ place: Place, depth: Int, insideErrorBoundary: Bool) -> Node {
        enum Kind { case suspense, errorBoundary, lateFailure, reopening }
        switch random.weighted([(6, Kind.suspense), (2, .errorBoundary), (2, .lateFailure), (1, .reopening)]) {
        case .suspense:
            // Content that suspends on a query, then more nodes, perhaps more boundaries.
            var content = list(place, depth: depth + 1, insideErrorBoundary: insideErrorBoundary)
            content.insert(
                .query(query(fails: false, delay: 1...8), [filler(place)]),
                at: random.int(0...content.count))
            return .suspense(content, fallback: fallback(place))
        case .errorBoundary:
            return .errorBoundary(
                list(place, depth: depth + 1, insideErrorBoundary: true),
                fallback: fallback(place, "error"), showsError: Self.allowsText(place))
        case .lateFailure:
            // A query that fails after the shell: its ErrorBoundary's fallback streams in.
            features.insert("late-failure")
            let failing = Node.query(query(fails: true, delay: 3...12), [filler(place)])
            var content = list(place, depth: depth + 1, insideErrorBoundary: true, count: random.int(0...2))
            content.insert(failing, at: random.int(0...content.count))
            return .errorBoundary(
                [.suspense(content, fallback: fallback(place))], fallback: fallback(place, "error"),
                showsError: Self.allowsText(place))
        case .reopening:
            // `Suspense { ErrorBoundary { Suspense { late failure } } fallback: { suspends } }`: the
            // outer Suspense resolves first, the late error shows the fallback, which suspends:
            // the outer Suspense is pending again until the fallback's query is done.
            features.insert("reopening")
            let inner = Node.suspense(
                [.query(query(fails: true, delay: 8...14), [filler(place)])], fallback: fallback(place))
            let caught = Node.errorBoundary(
                [inner], fallback: [.query(query(fails: false, delay: 3...8), [filler(place)])],
                showsError: Self.allowsText(place))
            return .suspense(
                [.query(query(fails: false, delay: 0...1), [filler(place)]), caught], fallback: fallback(place))
        }
    }

    private mutating func fallback(_ place: Place, _ word: String = "loading") -> [Node] {
        let text = "\(word) \(label())"
        switch place {
        case .flow, .phrasing, .text: return [.text(text)]
        case .list: return [.element("li", [], [.text(text)])]
        case .table, .tableBody: return [.element("tr", [], [.element("td", [], [.text(text)])])]
        case .row: return [.element("td", [], [.text(text)])]
        }
    }

    private static func allowsText(_ place: Place) -> Bool {
        switch place {
        case .flow, .phrasing, .text: return true
        case .list, .table, .tableBody, .row: return false
        }
    }
}

extension Node {
    /// Where the tree puts its boundaries, and what else in it is hard on a stream, as names for
    /// the report.
    static func features(of nodes: [Node]) -> Set<String> {
        var found: Set<String> = []
        let isDocument = nodes.contains {
            if case .element("html", _, _) = $0 { return true } else { return false }
        }
        found.insert(isDocument ? "document" : "fragment")
        if case .raw(let html) = nodes.first, html.hasPrefix("<!DOCTYPE") { found.insert("doctype") }
        if !isDocument, nodes.first?.startsWithBoundary == true { found.insert("leading-boundary") }
        func walk(_ nodes: [Node], parent: String, inBoundary: Bool) {
            for node in nodes {
                switch node {
                case .text, .raw:
                    break
                case .element(let tag, let attributes, let children):
                    if attributes.contains(where: {
                        $0.name == "id" && ($0.value.hasPrefix("sk:") || $0.value.first?.isNumber == true)
                            || $0.value == TreeGenerator.markerPlaceholder
                    }) {
                        found.insert("marker-like-id")
                    }
                    if tag == "body", children.first?.startsWithBoundary == true { found.insert("body-first-boundary") }
                    if tag == "table" { found.insert("table") }
                    walk(children, parent: tag, inBoundary: inBoundary)
                case .query(let query, let children):
                    if query.fails { found.insert("failing-query") }
                    walk(children, parent: parent, inBoundary: inBoundary)
                case .suspense(let content, let fallback), .errorBoundary(let content, let fallback, _):
                    if case .errorBoundary = node { found.insert("error-boundary") }
                    if inBoundary { found.insert("nested-boundary") }
                    switch parent {
                    case "title", "textarea", "body", "tr": found.insert("\(parent)-boundary")
                    case "table": found.insert("table-boundary-without-tbody")
                    case "tbody": found.insert("tbody-boundary")
                    case "ul", "ol": found.insert("list-boundary")
                    default: break
                    }
                    walk(content + fallback, parent: parent, inBoundary: true)
                }
            }
        }
        walk(nodes, parent: "", inBoundary: false)
        return found
    }

    /// Whether the first thing this node renders is a boundary's.
    var startsWithBoundary: Bool {
        switch self {
        case .suspense, .errorBoundary: return true
        case .query(_, let children): return children.first?.startsWithBoundary ?? false
        case .text, .raw, .element: return false
        }
    }

    /// The Suspense and ErrorBoundary components in the tree.
    var boundaries: Int {
        switch self {
        case .text, .raw: return 0
        case .element(_, _, let children), .query(_, let children): return children.map(\.boundaries).reduce(0, +)
        case .suspense(let content, let fallback), .errorBoundary(let content, let fallback, _):
            return 1 + (content + fallback).map(\.boundaries).reduce(0, +)
        }
    }

    /// The tree as indented lines, for a failing tree's report.
    func describe(indent: String = "") -> String {
        func children(_ nodes: [Node], _ more: String) -> String {
            nodes.map { $0.describe(indent: indent + more) }.joined()
        }
        switch self {
        case .text(let text):
            return "\(indent)Text(\(String(reflecting: text)))\n"
        case .raw(let html):
            return "\(indent)RawHTML(\(String(reflecting: html)))\n"
        case .element(let tag, let attributes, let nodes):
            let attrs = attributes.map { " \($0.name)=\(String(reflecting: $0.value))" }.joined()
            return "\(indent)<\(tag)\(attrs)>\n" + children(nodes, "  ")
        case .query(let query, let nodes):
            return "\(indent)Query(\(query.key), \(query.delay) ms\(query.fails ? ", fails" : ""))\n"
                + children(nodes, "  ")
        case .suspense(let content, let fallback):
            return "\(indent)Suspense\n" + children(content, "  ") + "\(indent)fallback:\n" + children(fallback, "  ")
        case .errorBoundary(let content, let fallback, let showsError):
            return "\(indent)ErrorBoundary\n" + children(content, "  ")
                + "\(indent)fallback\(showsError ? " (caught <error>)" : ""):\n" + children(fallback, "  ")
        }
    }
}
