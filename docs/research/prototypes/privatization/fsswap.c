/* The `tls` method as "swap fs_base": give a user-level context its own complete glibc thread block
 * (static TLS of every module + TCB) made by ld.so's _dl_allocate_tls (GLIBC_PRIVATE), and switch to it
 * with wrfsbase.  What works, what does not. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__thread int user_tl = 42;          /* a thread_local the program tagged */
__thread int runtime_pe = -1;       /* a runtime's per-PE thread-local (libvmpi's are initial-exec, like this) */
__attribute__((target("fsgsbase"))) static inline void setfs(uintptr_t v){ _writefsbase_u64(v); }
__attribute__((target("fsgsbase"))) static inline uintptr_t getfs(void){ return _readfsbase_u64(); }
static size_t tid_off;
static uintptr_t new_block(uintptr_t pe_tp)
{
    static void *(*alloc_tls)(void *);
    if (!alloc_tls) alloc_tls = (void *(*)(void *))dlsym(RTLD_DEFAULT, "_dl_allocate_tls");
    uintptr_t tp = (uintptr_t)alloc_tls(NULL);          /* TCB + static TLS, TLS init images copied */
    ((uintptr_t *)tp)[0] = tp;                          /* tcbhead_t.tcb  (fs:0)  */
    ((uintptr_t *)tp)[2] = tp;                          /* tcbhead_t.self (fs:16) */
    memcpy((char *)tp + 0x28, (char *)pe_tp + 0x28, 16); /* stack_guard, pointer_guard */
    memcpy((char *)tp + tid_off, (char *)pe_tp + tid_off, 4); /* struct pthread.tid (offset found by scan) */
    return tp;
}
int main(void)
{
    uintptr_t pe = getfs();
    pid_t tid = syscall(SYS_gettid);
    for (tid_off = 0x100; tid_off < 0x1000 && *(pid_t *)(pe + tid_off) != tid; tid_off += 4) {}
    printf("_dl_allocate_tls found: %s; struct pthread.tid at +0x%zx\n", dlsym(RTLD_DEFAULT, "_dl_allocate_tls") ? "yes" : "no", tid_off);
    runtime_pe = 0; user_tl = 1;
    uintptr_t a = new_block(pe), b = new_block(pe);
    setfs(a); user_tl = 100; errno = 0; close(-1); int ea = errno;
    setfs(b); user_tl = 200; errno = 0;
    setfs(a); printf("in A: user_tl=%d errno=%d (EBADF=%d) runtime_pe=%d (the PE set 0)\n", user_tl, ea, EBADF, runtime_pe);
    char *p = malloc(100); strcpy(p, "malloc ok"); puts(p); free(p);
    pthread_mutex_t m; pthread_mutexattr_t at; pthread_mutexattr_init(&at); pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &at); pthread_mutex_lock(&m); pthread_mutex_lock(&m); pthread_mutex_unlock(&m); pthread_mutex_unlock(&m);
    printf("recursive mutex ok, pthread_self()==block: %d\n", (uintptr_t)pthread_self() == a);
    setfs(b); printf("in B: user_tl=%d errno=%d\n", user_tl, errno);
    setfs(pe); printf("back on the PE: user_tl=%d runtime_pe=%d\n", user_tl, runtime_pe);
    int n = 10000000; double t = now();
    for (int i = 0; i < n; i++) { setfs(a); user_tl++; setfs(pe); }
    printf("switch in + out (2 x wrfsbase): %.1f ns\n", (now() - t) / n * 1e9);
    return 0;
}
