/// The names of the components and boundaries from the root to a place in the tree. Places share
/// their common prefix, so that going one level deeper costs O(1): copying an array at every
/// level made deep trees quadratic.
struct ComponentPath: Sendable {
    /// Immutable once made; `parent` is cleared only in `deinit`, on links no one else holds.
    private final class Link: @unchecked Sendable {
        let name: String
        var parent: Link?

        init(_ name: String, parent: Link?) {
            self.name = name
            self.parent = parent
        }

        /// Releases the chain above without recursion, as far as only this link holds it.
        deinit {
            var next = parent
            parent = nil
            while isKnownUniquelyReferenced(&next) {
                let following = next?.parent
                next?.parent = nil
                next = following
            }
        }
    }

    private var last: Link?

    init() {}

    mutating func append(_ name: String) {
        last = Link(name, parent: last)
    }

    func appending(_ name: String) -> ComponentPath {
        var copy = self
        copy.append(name)
        return copy
    }

    /// The names, root first.
    var names: [String] {
        var names: [String] = []
        var link = last
        while let current = link {
            names.append(current.name)
            link = current.parent
        }
        return names.reversed()
    }
}

/// An error on its way to a boundary, with the path of the component that threw it.
struct LocatedError: Error {
    let path: ComponentPath
    let underlying: any Error
}
