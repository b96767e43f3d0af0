/* Every kind of C global: each rank writes its rank, later checks it. */
#include <stdio.h>
#include <errno.h>
extern void host_log(const char *what, int rank, int value);
int g_init = 7;                 /* .data */
int g_zero;                     /* .bss */
static int s_file = 3;          /* file static */
int *p_g = &g_zero;             /* pointer between globals (R_X86_64_RELATIVE) */
static int twice(int x) { return 2 * x; }
int (*fp)(int) = twice;         /* pointer to function */
struct node { struct node *next; int v; } n2 = {0, 0}, n1 = {&n2, 0};
__thread int t_c = 11;          /* thread_local (general-dynamic in a shared object) */
static __thread int t_static;
extern int lib_counter(int set);  /* in a static library */
extern int pie_counter(int set);  /* in a static library built -fPIE */
static int *fstat_p(void) { static int fs = 5; return &fs; }
int c_set(int r)
{
    g_init = r; g_zero = r; s_file = r; *fstat_p() = r; n1.next->v = r; t_c = r; t_static = r;
    lib_counter(r); pie_counter(r);
    return 0;
}
int c_check(int r)
{
    int bad = 0;
#define CK(e) do { if ((e) != r) { host_log(#e, r, (e)); bad++; } } while (0)
    CK(g_init); CK(*p_g); CK(s_file); CK(*fstat_p()); CK(n2.v); CK(t_c); CK(t_static);
    CK(lib_counter(-1)); CK(pie_counter(-1)); CK(fp(r) / 2);
    errno = 0; if (fopen("/nonexistent/x", "r") == NULL && errno != ENOENT) { host_log("errno", r, errno); bad++; }
    return bad;
}
