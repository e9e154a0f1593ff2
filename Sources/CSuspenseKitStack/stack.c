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
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    void *address = 0;
    size_t size = 0;
    int result = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    if (result != 0 || address == 0) return -1;
    *low = (uintptr_t)address;
    *high = (uintptr_t)address + size;
    return 0;
#else
    (void)low;
    (void)high;
    return -1;
#endif
}
