/// A stack of plain values in storage of its own, for the renderers' walks: an array checked
/// uniqueness and capacity on every push, which a walk of 100,000 nodes paid 100,000 times.
/// `Element` holds no references (it is only moved, never released one by one).
struct PointerStack<Element: BitwiseCopyable>: ~Copyable {
    private var items: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        items = .allocate(capacity: self.capacity)
    }

    deinit {
        items.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The innermost value; only while the stack is not empty.
    var top: Element {
        get { items[count - 1] }
        nonmutating set { items[count - 1] = newValue }
    }

    mutating func push(_ value: Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: items, count: count)
            items.deallocate()
            items = larger
            capacity *= 2
        }
        (items + count).initialize(to: value)
        count += 1
    }

    mutating func pop() -> Element {
        count -= 1
        return items[count]
    }
}
