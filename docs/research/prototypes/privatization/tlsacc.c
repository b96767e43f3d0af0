__thread int tv;
__attribute__((noinline)) int *tv_addr(void) { return &tv; }   /* one TLS address computation per call */
long tl_loop(long n) { long s = 0; for (long i = 0; i < n; i++) { int *p = tv_addr(); (*p)++; s += *p; asm volatile("" ::: "memory"); } return s; }
int c_set(int r) { return 0; }
int c_check(int r) { return 0; }
