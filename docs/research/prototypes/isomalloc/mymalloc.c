#define _GNU_SOURCE
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
extern void *__libc_malloc(size_t); extern void __libc_free(void*); extern void *__libc_calloc(size_t,size_t);
extern void *__libc_realloc(void*,size_t); extern void *__libc_memalign(size_t,size_t);
unsigned long my_calls;
void *malloc(size_t n){ my_calls++; return __libc_malloc(n); }
void free(void *p){ my_calls++; __libc_free(p); }
void *calloc(size_t a,size_t b){ my_calls++; return __libc_calloc(a,b); }
void *realloc(void*p,size_t n){ my_calls++; return __libc_realloc(p,n); }
void *memalign(size_t a,size_t n){ my_calls++; return __libc_memalign(a,n); }
void *aligned_alloc(size_t a,size_t n){ my_calls++; return __libc_memalign(a,n); }
int posix_memalign(void **r,size_t a,size_t n){ my_calls++; void*p=__libc_memalign(a,n); if(!p) return ENOMEM; *r=p; return 0; }
void *valloc(size_t n){ my_calls++; return __libc_memalign(4096,n); }
unsigned long get_calls(void){ return my_calls; }
