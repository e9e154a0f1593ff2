#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reference to an object per thread, not retained: whoever sets it keeps the object alive
/// until it sets the reference back (`RenderScope.bind`). One pthread key, made once.
struct UnretainedThreadLocal<Object: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status))")
        self.key = key
    }

    /// This thread's object, if one is set.
    var value: Object? {
        unmanaged?.takeUnretainedValue()
    }

    /// This thread's object, if one is set, not retained.
    var unmanaged: Unmanaged<Object>? {
        pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0) }
    }

    /// Sets this thread's object; the caller keeps it alive while it is set.
    func set(_ object: Object?) {
        set(object.map { Unmanaged.passUnretained($0) })
    }

    /// Sets this thread's object as `unmanaged` (read before), without a retain.
    func set(_ unmanaged: Unmanaged<Object>?) {
        pthread_setspecific(key, unmanaged?.toOpaque())
    }
}
