/// The names of the components and boundaries from the root to a place in the tree. Places share
/// their common prefix, so that going one level deeper costs O(1): copying an array at every
/// level made deep trees quadratic.
///
/// The last name is held inline, and goes into a shared link only when a place below it needs
/// one (`sealLast()`, done once for a parent however many children it has): a component without
/// components below it, the most common kind, costs no allocation.
struct ComponentPath: Sendable {
    /// Immutable once made; `parent` is cleared only in `deinit`, on links no one else holds.
    private final class Link: ParentLinked, @unchecked Sendable {
        let name: String
        var parent: Link?

        init(_ name: String, parent: Link?) {
            self.name = name
            self.parent = parent
        }

        /// Releases the chain above without recursion, as far as only this link holds it.
        deinit {
            releaseParents()
        }
    }

    /// Every name but the last.
    private var sealed: Link?
    /// The last name, when it is not sealed into a link yet.
    private var last: String?

    init() {}

    mutating func append(_ name: String) {
        sealLast()
        last = name
    }

    /// Takes off the last name `append` added, whether a child sealed it into a link since or
    /// not.
    mutating func removeLast() {
        if last != nil {
            last = nil
        } else {
            sealed = sealed?.parent
        }
    }

    /// Moves the last name into a link, so that copies of this path made for the places below
    /// share it instead of each making one.
    mutating func sealLast() {
        if let name = last {
            sealed = Link(name, parent: sealed)
            last = nil
        }
    }

    func appending(_ name: String) -> ComponentPath {
        var copy = self
        copy.append(name)
        return copy
    }

    /// Whether `other` holds its names in the same shared link, with none inline: copies that
    /// cost no link of their own when a child is made below them.
    func sharesLink(with other: ComponentPath) -> Bool {
        last == nil && other.last == nil && sealed === other.sealed
    }

    /// The last name, without walking the path: O(1), where `names` is O(depth).
    var lastName: String? {
        last ?? sealed?.name
    }

    /// The names, root first.
    var names: [String] {
        var names = sealed?.rootFirst(\.name) ?? []
        if let last { names.append(last) }
        return names
    }
}

/// An error on its way to a boundary, with the path of the component that threw it.
struct LocatedError: Error {
    let path: ComponentPath
    let underlying: any Error
}
