// AMPI's -tlsglobals trick: point the TCB's first word (fs:0, tcbhead_t.tcb) at a copy of the static TLS
// block; code built with -mno-tls-direct-seg-refs computes TLS addresses from fs:0 and follows the copy,
// but glibc's own direct %fs:off accesses do not.  Does errno stay consistent?
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <link.h>
static size_t tls_total;
static int cb(struct dl_phdr_info *i, size_t s, void *d){ (void)s;(void)d;
  for (int j=0;j<i->dlpi_phnum;j++) if (i->dlpi_phdr[j].p_type==PT_TLS) tls_total += (i->dlpi_phdr[j].p_memsz + i->dlpi_phdr[j].p_align-1) & ~(i->dlpi_phdr[j].p_align-1);
  return 0; }
__thread int mine = 1;
static void *get0(void){ void *p; asm volatile("mov %%fs:0,%0":"=r"(p)); return p; }
static void set0(void *p){ asm volatile("mov %0,%%fs:0"::"r"(p):"memory"); }
int main(void){
  dl_iterate_phdr(cb, 0);
  char *tp = get0();
  size_t n = (tls_total + 63) & ~(size_t)63;
  char *copy = aligned_alloc(64, n + 64);
  memcpy(copy, tp - n, n);
  char *newtp = copy + n;
  printf("static TLS (sum of PT_TLS) = %zu bytes\n", tls_total);
  set0(newtp);                       /* fs_base unchanged, fs:0 now points at the copy */
  mine = 2;                          /* built with -mno-tls-direct-seg-refs: goes via fs:0 -> copy */
  int *loc = __errno_location();     /* glibc: errno@gottpoff + fs:0 -> copy */
  errno = 0;                          /* user code: *__errno_location() = 0 -> copy */
  int r = close(-1);                 /* glibc sets errno with a direct %fs:off store -> original */
  int seen = errno;                  /* read through __errno_location -> copy */
  set0(tp);
  int real = *(int*)((char*)loc - newtp + tp); /* same variable in the original block */
  printf("close(-1)=%d; errno seen by program via fs:0 = %d, errno glibc wrote (original block) = %d, EBADF=%d\n", r, seen, real, EBADF);
  printf("__errno_location moved to the copy: %s\n", (char*)loc >= copy && (char*)loc < copy+n ? "yes" : "no");
  printf("copy mine=%d, original mine=%d\n", *(int*)((char*)&mine - tp + newtp), mine);
  return 0;
}
