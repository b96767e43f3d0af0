/* Loads N private copies of a program image, runs constructors, sets and checks every kind of global per
 * copy (all copies set before any checks), runs destructors.  Reports time and memory per copy. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "imgload.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static long status_kb(const char *key){ FILE*f=fopen("/proc/self/status","r"); char l[256]; long v=0; size_t k=strlen(key);
  while(fgets(l,256,f)) if(!strncmp(l,key,k)) v=atol(l+k); fclose(f); return v; }
static int nmaps(void){ FILE*f=fopen("/proc/self/maps","r"); int n=0,c; while((c=fgetc(f))!=EOF) n+=c=='\n'; fclose(f); return n; }
static int verbose = 1, dtors;
void host_log(const char *what, int rank, int value)
{
    if (!strncmp(what, "~", 1)) { dtors++; if (verbose > 1) printf("  %s rank %d (%d)\n", what, rank, value); return; }
    printf("  WRONG: %s = %d in rank %d\n", what, value, rank);
}
int main(int argc, char **argv)
{
    const char *path = argv[1]; int n = atoi(argv[2]); int full = argc > 3 && !strcmp(argv[3], "full"), shared = argc > 3 && !strcmp(argv[3], "shared");
    size_t slot = 1UL << 30; /* 1 GiB per copy, as an isomalloc slot would be */
    uintptr_t base = 0x200000000000UL;
    if (mmap((void *)base, slot * n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED) { perror("mmap"); return 1; }
    img *m = calloc(n, sizeof *m);
    long rss0 = status_kb("VmRSS:"), pt0 = status_kb("VmPTE:"); int maps0 = nmaps();
    double t = now();
    for (int i = 0; i < (shared ? 1 : n); i++) if (img_load(&m[i], path, base + i * slot)) return 1;
    double tl = now() - t; t = now();
    for (int i = 0; i < (shared ? 1 : n); i++) img_init(&m[i], argc, argv, environ);
    double ti = now() - t;
    long rss1 = status_kb("VmRSS:"), pt1 = status_kb("VmPTE:"); int maps1 = nmaps();
    printf("%d copies of %s: load %.1f us/copy (%zu relative + %zu symbolic relocations), constructors %.1f us/copy\n",
           n, path, tl / n * 1e6, m[0].nrel, m[0].nsym, ti / n * 1e6);
    printf("  after load+init: RSS +%ld KB/copy, page tables +%.1f KB/copy, +%.1f mappings/copy\n",
           (rss1 - rss0) / n, (double)(pt1 - pt0) / n, (double)(maps1 - maps0) / n);
    if (full) {
        int (*bump)(void);
        t = now();
        for (int i = 0; i < n; i++) { bump = (int (*)(void))img_sym(&m[i], "touch_all"); if (bump) bump(); }
        printf("  every copy writes all its data: %.1f us/copy, RSS +%ld KB/copy\n", (now() - t) / n * 1e6, (status_kb("VmRSS:") - rss0) / n);
        return 0;
    }
    int bad = 0;
    static const char *set[] = {"c_set", "cxx_set", "f_set"}, *chk[] = {"c_check", "cxx_check", "f_check"};
    for (int k = 0; k < 3; k++) for (int i = 0; i < n; i++) { int (*f)(int) = (int (*)(int))img_sym(&m[shared ? 0 : i], set[k]); if (f) { img_enter(&m[shared ? 0 : i]); f(i); } }
    for (int k = 0; k < 3; k++) for (int i = 0; i < n; i++) { int (*f)(int) = (int (*)(int))img_sym(&m[shared ? 0 : i], chk[k]); if (f) { img_enter(&m[shared ? 0 : i]); bad += f(i); } }
    for (int i = 0; i < (shared ? 1 : n); i++) img_fini(&m[i]);
    printf("  checks: %d wrong; destructors run: %d (expected %d: ~Obj and ~TL per copy)\n", bad, dtors, 2 * n);
    return bad != 0;
}
