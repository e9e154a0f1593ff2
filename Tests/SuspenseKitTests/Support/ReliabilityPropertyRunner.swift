@testable import SuspenseKit

/// Runs generated cases against the reference model, shrinks failures and prints them.
enum ReliabilityPropertyRunner {
    typealias Harness = ReliabilityHarness
    typealias Model = ReliabilityModel

    /// Runs one case once. Returns `nil` when the resolver agrees with the model and every query
    /// task ended, else what went wrong.
    static func check(_ testCase: Harness.Case) async -> String? {
        let expected = Model.outcome(of: testCase)
        let environment = Harness.Environment(testCase)
        let page = Harness.Page(children: testCase.root, environment: environment)
        let options = RenderOptions(deliveryOrder: testCase.deliveryOrder)
        var problems: [String] = []
        let actual: Result<Node, any Error>
        do {
            actual = .success(try await resolve(page, cache: environment.makeCache(), options: options))
        } catch {
            actual = .failure(error)
        }
        let ledger = environment.ledger
        if ledger.live != 0 {
            problems.append("\(ledger.live) query tasks still running after the render ended")
        }
        for (key, count) in ledger.starts.sorted(by: { $0.key < $1.key }) {
            if count > 1 { problems.append("query \(key) ran \(count) times in one render") }
            if testCase.outcomes[key]?.isStored == true {
                problems.append("query \(key) ran although the cache held it")
            }
        }
        switch (expected, actual) {
        case (.tree(let tree), .success(let node)):
            if !matches(node, tree) {
                problems.append("expected tree:\n\(describe(tree))\nactual tree:\n\(node.rendered(asTreeOr: "?"))")
            }
            for format in [RenderFormat.tree, .plain, .html, .html(pretty: true)] {
                do { _ = try node.rendered(as: format) } catch { problems.append("rendering failed: \(error)") }
            }
        case (.tree(let tree), .failure(let error)):
            problems.append("expected tree:\n\(describe(tree))\nactual: render threw \(error)")
        case (.renderError(let allowed), .success(let node)):
            problems.append(
                "expected a RenderError, one of:\n\(allowed.map { "  \($0)" }.joined(separator: "\n"))\nactual tree:\n\(node.rendered(asTreeOr: "?"))"
            )
        case (.renderError(let allowed), .failure(let error)):
            if let error = error as? RenderError {
                let thrown = Model.Thrown(path: error.path, message: "\(error.underlying)")
                if !allowed.contains(thrown) {
                    problems.append(
                        "expected a RenderError, one of:\n\(allowed.map { "  \($0)" }.joined(separator: "\n"))\nactual: \(thrown)"
                    )
                }
            } else {
                problems.append("expected a RenderError; actual: \(type(of: error)): \(error)")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    /// Runs a case a few times (outcomes may depend on timing); the first problem, if any.
    static func checkRepeatedly(_ testCase: Harness.Case, times: Int) async -> String? {
        for _ in 0..<times {
            if let problem = await check(testCase) { return problem }
        }
        return nil
    }

    // MARK: Matching

    static func matches(_ actual: Node, _ expected: Model.Expected) -> Bool {
        switch expected {
        case .node(let kind, let children):
            return actual.kind == kind && matches(actual.children, children)
        case .caughtAny(let messages, let fallback):
            guard case .errorBoundary(.caught(let message)) = actual.kind, messages.contains(message) else {
                return false
            }
            return matches(actual.children, fallback(message))
        }
    }

    static func matches(_ actual: [Node], _ expected: [Model.Expected]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { matches($0, $1) }
    }

    /// The expected tree in the `.tree` format; a boundary that may show several errors shows the
    /// fallback for the first.
    static func describe(_ expected: Model.Expected) -> String {
        func node(_ expected: Model.Expected) -> Node {
            switch expected {
            case .node(let kind, let children):
                return Node(kind, children: children.map(node))
            case .caughtAny(let messages, let fallback):
                return Node(
                    .errorBoundary(.caught("one of: " + messages.joined(separator: " | "))),
                    children: fallback(messages[0]).map(node))
            }
        }
        return node(expected).rendered(asTreeOr: "?")
    }

    // MARK: Shrinking

    /// Simplifies a failing case step by step while it still fails: removes nodes, replaces
    /// them with text, unwraps them into their children, drops keys, throws and latencies.
    static func shrink(_ failing: Harness.Case, attemptsPerCandidate: Int = 4, budget: Int = 3_000) async
        -> Harness.Case
    {
        var current = failing
        var tries = 0
        var improved = true
        while improved && tries < budget {
            improved = false
            for candidate in simplifications(of: current) where Model.isValid(candidate) {
                tries += 1
                if tries > budget { break }
                if await checkRepeatedly(candidate, times: attemptsPerCandidate) != nil {
                    current = candidate
                    improved = true
                    break
                }
            }
        }
        return current
    }

    static func simplifications(of testCase: Harness.Case) -> [Harness.Case] {
        var result = variants(of: testCase.root).map { root in
            var copy = testCase
            copy.root = root
            return copy
        }
        for (key, outcome) in testCase.outcomes.sorted(by: { $0.key < $1.key }) {
            var copy = testCase
            switch outcome {
            case .success(let latency) where latency > 0: copy.outcomes[key] = .success(latency: 0)
            case .failure(let latency) where latency > 0: copy.outcomes[key] = .failure(latency: 0)
            default: continue
            }
            result.append(copy)
        }
        return result
    }

    /// Every list obtained by simplifying one node of `list` one step.
    static func variants(of list: [Harness.Desc]) -> [[Harness.Desc]] {
        var result: [[Harness.Desc]] = []
        for (index, node) in list.enumerated() {
            func replacing(with replacement: [Harness.Desc]) -> [Harness.Desc] {
                var copy = list
                copy.replaceSubrange(index...index, with: replacement)
                return copy
            }
            result.append(replacing(with: []))
            switch node {
            case .text(let text):
                if text != "x" { result.append(replacing(with: [.text("x")])) }
            case .element(let tag, let attributes, let children):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: children))
                if !attributes.isEmpty {
                    result.append(replacing(with: [.element(tag: tag, attributes: [], children: children)]))
                }
                for variant in variants(of: children) {
                    result.append(replacing(with: [.element(tag: tag, attributes: attributes, children: variant)]))
                }
            case .gen(let spec):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: spec.children))
                for keyIndex in spec.keys.indices {
                    var copy = spec
                    copy.keys.remove(at: keyIndex)
                    result.append(replacing(with: [.gen(copy)]))
                }
                if spec.throwsAfterReading {
                    var copy = spec
                    copy.throwsAfterReading = false
                    result.append(replacing(with: [.gen(copy)]))
                }
                if spec.readsInInit {
                    var copy = spec
                    copy.readsInInit = false
                    result.append(replacing(with: [.gen(copy)]))
                }
                for variant in variants(of: spec.children) {
                    var copy = spec
                    copy.children = variant
                    result.append(replacing(with: [.gen(copy)]))
                }
            case .suspense(let content, let fallback):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: content))
                for variant in variants(of: content) {
                    result.append(replacing(with: [.suspense(content: variant, fallback: fallback)]))
                }
                for variant in variants(of: fallback) {
                    result.append(replacing(with: [.suspense(content: content, fallback: variant)]))
                }
            case .errorBoundary(let content, let fallback):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: content))
                for variant in variants(of: content) {
                    result.append(replacing(with: [.errorBoundary(content: variant, fallback: fallback)]))
                }
                for variant in variants(of: fallback) {
                    result.append(replacing(with: [.errorBoundary(content: content, fallback: variant)]))
                }
            }
        }
        return result
    }

    // MARK: Printing

    /// The case as the component tree a user would write, plus what each key does.
    static func describe(_ testCase: Harness.Case) -> String {
        var lines: [String] = []
        func emit(_ list: [Harness.Desc], _ indent: String) {
            for node in list {
                switch node {
                case .text(let text):
                    lines.append(indent + "Text(\(TreeRenderer.quoted(text)))")
                case .element(let tag, let attributes, let children):
                    let attributeList = attributes.map { "\($0.name)=\(TreeRenderer.quoted($0.value))" }.joined(
                        separator: " ")
                    lines.append(indent + "Element(\"\(tag)\"\(attributes.isEmpty ? "" : " " + attributeList)) {")
                    emit(children, indent + "    ")
                    lines.append(indent + "}")
                case .gen(let spec):
                    var traits = [
                        "keys: [\(spec.keys.joined(separator: ", "))]",
                        spec.readsInInit ? "reads in init" : "reads in body",
                    ]
                    if spec.throwsAfterReading { traits.append("then throws") }
                    lines.append(indent + "Gen#\(spec.id)(\(traits.joined(separator: ", "))) {")
                    emit(spec.children, indent + "    ")
                    lines.append(indent + "}")
                case .suspense(let content, let fallback):
                    lines.append(indent + "Suspense {")
                    emit(content, indent + "    ")
                    lines.append(indent + "} fallback: {")
                    emit(fallback, indent + "    ")
                    lines.append(indent + "}")
                case .errorBoundary(let content, let fallback):
                    lines.append(indent + "ErrorBoundary {")
                    emit(content, indent + "    ")
                    lines.append(indent + "} fallback: { error in")
                    lines.append(indent + "    Text(\"caught: \\(error)\")")
                    emit(fallback, indent + "    ")
                    lines.append(indent + "}")
                }
            }
        }
        lines.append("Page {")
        emit(testCase.root, "    ")
        lines.append("}")
        let used = usedKeys(testCase.root)
        lines.append("keys (deliveryOrder: .\(testCase.deliveryOrder)):")
        for key in testCase.outcomes.keys.sorted() where used.contains(key) {
            lines.append("    \(key): \(testCase.outcomes[key]!)")
        }
        return lines.joined(separator: "\n")
    }

    static func usedKeys(_ list: [Harness.Desc]) -> Set<String> {
        var keys = Set<String>()
        for node in list {
            switch node {
            case .text: break
            case .element(_, _, let children): keys.formUnion(usedKeys(children))
            case .gen(let spec): keys.formUnion(spec.keys); keys.formUnion(usedKeys(spec.children))
            case .suspense(let a, let b), .errorBoundary(let a, let b):
                keys.formUnion(usedKeys(a)); keys.formUnion(usedKeys(b))
            }
        }
        return keys
    }

    /// The number of nodes a case describes.
    static func size(_ list: [Harness.Desc]) -> Int {
        list.reduce(0) { total, node in
            switch node {
            case .text: return total + 1
            case .element(_, _, let children): return total + 1 + size(children)
            case .gen(let spec): return total + 1 + size(spec.children)
            case .suspense(let a, let b), .errorBoundary(let a, let b): return total + 1 + size(a) + size(b)
            }
        }
    }
}

extension Node {
    fileprivate func rendered(asTreeOr fallback: String) -> String {
        (try? rendered(as: .tree)) ?? fallback
    }
}
