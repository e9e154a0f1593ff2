/// Bytes appended one after another into storage the buffer owns: what `.plain` and `.tree`
/// write their output into.
///
/// A pointer and two counts rather than an `[UInt8]`: an array checks, on every append, that its
/// storage is unique and has room, and appends of one byte or a few (a newline, a branch, a
/// marker) are most of what these formats write. Here an append is one comparison and a copy;
/// the output becomes a `String` with one copy at the end.
struct ByteBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes; it grows past them when it must.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        (start + count).initialize(to: byte)
        count += 1
    }

    /// Appends two bytes, such as a backslash and the letter of an escape.
    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        if capacity - count < 2 { grow(toHold: count + 2) }
        (start + count).initialize(to: first)
        (start + count + 1).initialize(to: second)
        count += 2
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (start + count).initialize(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ string: StaticString) {
        append(UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes; a native string lends them without a copy.
    mutating func append(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var string = string
            string.withUTF8 { append($0) }
        }
    }

    /// Appends `byte` `repetitions` times.
    @inline(__always)
    mutating func append(_ byte: UInt8, repeated repetitions: Int) {
        guard repetitions > 0 else { return }
        if capacity - count < repetitions { grow(toHold: count + repetitions) }
        (start + count).initialize(repeating: byte, count: repetitions)
        count += repetitions
    }

    /// Lets `body` write at most `maximum` bytes at the end; it returns the position after the
    /// last byte it wrote.
    @inline(__always)
    mutating func append(
        atMost maximum: Int,
        _ body: (UnsafeMutablePointer<UInt8>) throws -> UnsafeMutablePointer<UInt8>
    ) rethrows {
        if capacity - count < maximum { grow(toHold: count + maximum) }
        let end = try body(start + count)
        count = end - start
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grown = max(capacity * 2, needed)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.moveInitialize(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = grown
    }

    /// The bytes as a string (they are UTF-8: every format writes whole characters).
    consuming func string() -> String {
        String(unsafeUninitializedCapacity: count) { storage in
            guard let base = storage.baseAddress else { return 0 }
            base.initialize(from: start, count: count)
            return count
        }
    }
}
