/// Arrays of renders that ended, empty but with their room, for later renders to reuse.
///
/// Why: a page of 100,000 items has about 5 MB of node records. Freed when its render ends, they
/// let the allocator hand the top of its heap back to the system (13 MB for that page), and the
/// next render faulted all of it in again: about a quarter of a static render's CPU time. An
/// array kept here keeps its pages. What is kept is bounded: at most `maxKept` arrays, each of
/// `minBytes` to `maxBytes` (a smaller one costs little to make again).
final class SparePool<Element: Sendable>: Sendable {
    private let spares = Locked<[[Element]]>([])
    let maxKept: Int
    let minBytes: Int
    let maxBytes: Int

    init(maxKept: Int, minBytes: Int, maxBytes: Int) {
        self.maxKept = maxKept
        self.minBytes = minBytes
        self.maxBytes = maxBytes
    }

    /// An empty array with the room of one given back, if one is kept.
    func take() -> [Element]? {
        spares.withLock { $0.popLast() }
    }

    /// Keeps `array`'s room for a later `take()`, when it is within the bounds and fewer than
    /// `maxKept` are kept; leaves `array` empty either way.
    func give(_ array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= minBytes, bytes <= maxBytes else {
            array = []
            return
        }
        array.removeAll(keepingCapacity: true)
        spares.withLock { spares in
            if spares.count < maxKept { spares.append(array) }
        }
        // The pool's copy is the buffer's one owner now; one not kept is freed here, outside
        // the lock.
        array = []
    }

    /// How many arrays are kept.
    var count: Int { spares.withLock { $0.count } }
}
