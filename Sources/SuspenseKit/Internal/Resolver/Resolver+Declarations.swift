extension _Resolver {
    /// The response declarations of the visible tree as it stands now, in document order, with
    /// their node ids: what the shell declared, whichever part of the tree the shell's event
    /// carries (the in-order stream's holds only the document up to the first pending Suspense,
    /// while a declaration after it was made before the shell all the same). Nothing to walk,
    /// and no cost, for a page that declares nothing.
    func visibleDeclarations() -> [(node: Int32, declaration: ResponseDeclaration)] {
        guard !nodes.declarations.isEmpty else { return [] }
        var found: [(node: Int32, declaration: ResponseDeclaration)] = []
        // The next node to visit at each open level: a node's next sibling goes below its first
        // child, so that the walk is in document order.
        var stack = [nodes.records[Int(rootNode)].first]
        while let id = stack.popLast() {
            guard id >= 0 else { continue }
            let record = nodes.records[Int(id)]
            stack.append(record.next)
            switch record.kind {
            case .declaration:
                found.append((id, nodes.declarations[Int(record.a)]))
            case .text, .rawHTML:
                break
            case .suspense:
                let suspense = records.suspenses[Int(record.a)]
                let shown = suspense.isResolved ? suspense.contentNode : suspense.fallbackNode
                stack.append(nodes.records[Int(shown)].first)
            case .errorBoundary:
                let boundary = records.errorBoundaries[Int(record.a)]
                let shown = boundary.caught == nil ? boundary.contentNode : boundary.fallbackNode
                stack.append(nodes.records[Int(shown)].first)
            case .fragment, .element, .component:
                stack.append(record.first)
            }
        }
        return found
    }
}
