/// A link of a path that shares its prefix with other paths: a position path, a frame's child
/// path. Each link holds its parent, never its children, so a path of a thousand levels is a
/// chain a thousand links long. Two things every such chain needs are here once: releasing it
/// without recursing once per link (the default `deinit` would, and a deep tree's chain would
/// overflow the stack), and walking it from the root.
protocol ParentLinked: AnyObject {
    /// The link above; cleared only by `releaseParents()`, as the link is deinitialized.
    var parent: Self? { get set }
}

extension ParentLinked {
    /// Releases the links above without recursion, as far as only this link holds them. Called
    /// from `deinit`.
    func releaseParents() {
        var next = parent
        parent = nil
        while isKnownUniquelyReferenced(&next) {
            let following = next?.parent
            next?.parent = nil
            next = following
        }
    }

    /// `value` of each link from the root down to this one.
    func rootFirst<Value>(_ value: (Self) -> Value) -> [Value] {
        var values: [Value] = []
        var link: Self? = self
        while let current = link {
            values.append(value(current))
            link = current.parent
        }
        values.reverse()
        return values
    }
}
