#define _GNU_SOURCE
#include "CSuspenseKitStack.h"
#include <pthread.h>

__attribute__((noinline)) uintptr_t suspensekit_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

int suspensekit_stack_bounds(uintptr_t *low, uintptr_t *high) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
    size_t size = pthread_get_stacksize_np(thread);
    *high = top;
    *low = top - size;
    return 0;
#elif defined(__linux__)
    // A thread's stack never moves, and asking glibc costs a system call (and, on the main
    // thread, a read of /proc/self/maps): the answer is kept per thread.
    static __thread uintptr_t known_low = 0, known_high = 0;
    if (known_high != 0) {
        *low = known_low;
        *high = known_high;
        return 0;
    }
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = 0;
    size_t size = 0;
    int result = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    if (result != 0 || address == 0) return -1;
    known_low = (uintptr_t)address;
    known_high = (uintptr_t)address + size;
    *low = known_low;
    *high = known_high;
    return 0;
#else
    (void)low;
    (void)high;
    return -1;
#endif
}
