/// The tree being resolved, as records in one array: each node links to its first child, its
/// last child (to append in O(1)) and its next sibling. Resolving a node appends a record and
/// allocates nothing; text is copied into one byte buffer; tag and component names are stored
/// once each. Suspended regions (slots, boundary contents and fallbacks) are fragment records
/// whose children are replaced as they resolve; records cut out of the tree stay in the array
/// until the render ends.
///
/// Why not a class per node: a page of 100,000 items made 200,000 node objects and as many
/// children arrays, then a second tree of ``Node`` values; allocation and release were most of
/// the time of a static render, and most of its memory.
struct NodeArena {
    typealias ID = Int32

    typealias Kind = NodeKind

    struct Record {
        var first: ID = -1
        var last: ID = -1
        var next: ID = -1
        var a: Int32
        var b: Int32
        var kind: Kind
    }

    var records: [Record] = []
    /// The records of renders that ended, for the next render's arena (see ``SparePool``): up
    /// to two, each from 1 MB (about 44,000 nodes) to 16 MB.
    static let spareRecords = SparePool<Record>(maxKept: 2, minBytes: 1 << 20, maxBytes: 16 << 20)
    var bytes: [UInt8] = []
    var names = NameTable()
    var attributeLists: [[Attribute]] = []
    /// For the text of an ``ErrorMessage``, by its id: where the error's description is in
    /// `bytes`. The text itself is what HTML shows; `.tree` and `.plain` show the description.
    var descriptions: [ID: TextRange] = [:]
    /// The response declarations, by the `a` of their records.
    var declarations: [ResponseDeclaration] = []

    /// Reserves room for a render the size of `hint` (the last render of the same root type),
    /// so that a page rendered again and again grows its buffers once, not by doubling.
    mutating func reserve(_ hint: RenderSizeHints.Size) {
        records.reserveCapacity(hint.records)
        bytes.reserveCapacity(hint.bytes)
    }

    /// Adds a fragment that is nobody's child yet.
    mutating func makeFragment() -> ID {
        add(Record(a: 0, b: 0, kind: .fragment))
    }

    @discardableResult
    mutating func appendText(_ text: String, to parent: ID) -> ID {
        let (offset, length) = store(text)
        return append(Record(a: offset, b: length, kind: .text), to: parent)
    }

    /// Adds the text of an ``ErrorMessage``: `presented` for HTML, `description` for the other
    /// formats (see `descriptions`).
    mutating func appendErrorMessage(presented: String, description: String, to parent: ID) {
        let id = appendText(presented, to: parent)
        let (offset, length) = store(description)
        descriptions[id] = TextRange(offset: offset, length: length)
    }

    @discardableResult
    mutating func appendRawHTML(_ html: String, to parent: ID) -> ID {
        let (offset, length) = store(html)
        return append(Record(a: offset, b: length, kind: .rawHTML), to: parent)
    }

    mutating func appendDeclaration(_ declaration: ResponseDeclaration, to parent: ID) {
        declarations.append(declaration)
        append(Record(a: Int32(declarations.count - 1), b: 0, kind: .declaration), to: parent)
    }

    /// Adds an element whose tag is `names[name]`.
    mutating func appendElement(name: Int32, attributes: [Attribute], to parent: ID) -> ID {
        var list: Int32 = -1
        if !attributes.isEmpty {
            list = Int32(attributeLists.count)
            attributeLists.append(attributes)
        }
        return append(Record(a: name, b: list, kind: .element), to: parent)
    }

    /// Adds a component whose name is `names[name]`.
    mutating func appendComponent(name: Int32, to parent: ID) -> ID {
        append(Record(a: name, b: 0, kind: .component), to: parent)
    }

    mutating func appendSuspense(_ index: SuspenseIndex, to parent: ID) -> ID {
        append(Record(a: Int32(index), b: 0, kind: .suspense), to: parent)
    }

    mutating func appendErrorBoundary(_ index: ErrorBoundaryIndex, to parent: ID) -> ID {
        append(Record(a: Int32(index), b: 0, kind: .errorBoundary), to: parent)
    }

    /// Makes `child`, a node that is nobody's child yet, the last child of `parent`.
    @inline(__always)
    mutating func link(_ child: ID, to parent: ID) {
        // Through the buffer: one uniqueness check for the three writes, where each subscript
        // of the array checked it and the bounds again (two links per list item).
        records.withUnsafeMutableBufferPointer { records in
            // Ids come from this arena; the parent is checked, its last child was linked here.
            precondition(Int(parent) < records.count && Int(child) < records.count, "a node id out of the arena")
            let last = records[Int(parent)].last
            if last < 0 {
                records[Int(parent)].first = child
            } else {
                records[Int(last)].next = child
            }
            records[Int(parent)].last = child
        }
    }

    /// Cuts every child out of the tree (they stay in the array, unreachable).
    mutating func removeChildren(of parent: ID) {
        records[Int(parent)].first = -1
        records[Int(parent)].last = -1
    }

    @inline(__always)
    private mutating func add(_ record: Record) -> ID {
        let id = ID(truncatingIfNeeded: records.count)
        precondition(records.count < Int(Int32.max), "a render cannot hold more than 2^31 nodes")
        records.append(record)
        return id
    }

    @discardableResult @inline(__always)
    private mutating func append(_ record: Record, to parent: ID) -> ID {
        let id = add(record)
        link(id, to: parent)
        return id
    }

    private mutating func store(_ string: String) -> (Int32, Int32) {
        let offset = bytes.count
        // Native strings lend their bytes without a copy of the string (`withUTF8` needs a
        // mutable copy, a retain and a release per text).
        if string.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            var string = string
            string.withUTF8 { bytes.append(contentsOf: $0) }
        }
        precondition(bytes.count <= Int(Int32.max), "a render cannot hold more than 2 GiB of text")
        return (Int32(truncatingIfNeeded: offset), Int32(truncatingIfNeeded: bytes.count - offset))
    }
}

/// Tag and component names, each stored once: a page uses a handful of distinct names thousands
/// of times, and comparing a short string with the last few seen beats hashing it.
struct NameTable {
    private(set) var names: [String] = []
    private var recent: [(name: String, index: Int32)] = []
    private var indices: [String: Int32] = [:]

    subscript(index: Int32) -> String { names[Int(index)] }

    mutating func index(of name: String) -> Int32 {
        for entry in recent where entry.name == name {
            return entry.index
        }
        let index: Int32
        if let known = indices[name] {
            index = known
        } else {
            index = Int32(names.count)
            names.append(name)
            indices[name] = index
        }
        if recent.count < 8 {
            recent.append((name, index))
        } else {
            recent[Int(index) % 8] = (name, index)
        }
        return index
    }
}

extension NodeArena {
    /// The error for the void element `node`, whose content left nodes below it: a slot (a
    /// fragment) is a child that suspended.
    func voidElementError(_ tag: String, childrenOf node: ID) -> InvalidMarkupError {
        var children = 0
        var suspended = false
        var child = records[Int(node)].first
        while child >= 0 {
            children += 1
            if records[Int(child)].kind == .fragment { suspended = true }
            child = records[Int(child)].next
        }
        return .voidElement(tag, children: children, suspended: suspended)
    }
}
