/// The bytes of a tree's tag and component names, one after another, made once per render, so
/// that writing a name for every node copies bytes instead of retaining and reading a `String`.
struct NameBytes {
    private(set) var bytes: [UInt8] = []
    /// Where each name's bytes are, by its index in the tree's `NameTable`.
    private(set) var ranges: [Range<Int>] = []

    /// `names` as `write` puts them: as they are for HTML, escaped for a terminal.
    init(_ names: [String], write: (String, inout [UInt8]) -> Void) {
        ranges.reserveCapacity(names.count)
        for name in names {
            let start = bytes.count
            write(name, &bytes)
            ranges.append(start..<bytes.count)
        }
    }

    /// The names' UTF-8 bytes as they are.
    init(utf8 names: [String]) {
        self.init(names) { name, bytes in bytes.append(contentsOf: name.utf8) }
    }

    /// How many bytes the name at `index` takes.
    @inline(__always)
    func count(of index: Int32) -> Int {
        ranges[Int(index)].count
    }

    @inline(__always)
    func append(_ index: Int32, to output: inout ByteBuffer) {
        bytes.withUnsafeBufferPointer {
            output.append(UnsafeBufferPointer(rebasing: $0[ranges[Int(index)]]))
        }
    }
}
