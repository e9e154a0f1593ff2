extension _Resolver {
    /// The tree as it stands now: pending Suspense boundaries show their fallback, caught
    /// ErrorBoundaries theirs; slots and fragments leave no node. Iterative, so that deep trees
    /// cannot overflow the stack.
    func materialize() -> Node {
        struct Frame {
            let kind: Node.Kind?
            let children: [BuildNode]
            var index = 0
            var output: [Node] = []
        }
        var stack = [Frame(kind: .fragment, children: rootNode.children)]
        while true {
            let top = stack.count - 1
            if stack[top].index == stack[top].children.count {
                let frame = stack.removeLast()
                if stack.isEmpty {
                    return Node(.fragment, children: frame.output)
                }
                if let kind = frame.kind {
                    stack[stack.count - 1].output.append(Node(kind, children: frame.output))
                } else {
                    stack[stack.count - 1].output.append(contentsOf: frame.output)
                }
                continue
            }
            let child = stack[top].children[stack[top].index]
            stack[top].index += 1
            switch child.kind {
            case .text(let text):
                stack[top].output.append(Node(.text(text)))
            case .rawHTML(let html):
                stack[top].output.append(Node(.rawHTML(html)))
            case .element(let tag, let attributes):
                stack.append(Frame(kind: .element(tag: tag, attributes: attributes), children: child.children))
            case .component(let name):
                stack.append(Frame(kind: .component(name: name), children: child.children))
            case .fragment, .slot:
                stack.append(Frame(kind: nil, children: child.children))
            case .suspense(let record):
                if record.isResolved {
                    stack.append(Frame(kind: .suspense(.resolved), children: record.contentNode.children))
                } else {
                    stack.append(
                        Frame(kind: .suspense(.pending(record.pendingQueries)), children: record.fallbackNode.children)
                    )
                }
            case .errorBoundary(let record):
                if let error = record.caught {
                    stack.append(
                        Frame(kind: .errorBoundary(.caught(describeError(error))), children: record.fallbackNode.children)
                    )
                } else {
                    stack.append(Frame(kind: .errorBoundary(.clean), children: record.contentNode.children))
                }
            }
        }
    }
}
