/* SPDX-License-Identifier: BSD-3-Clause */
/* Privatization of every kind of C global (driver and variants: privtest.h): initialized and
 * zero-initialized globals, file-scope and function-scope statics, an array, pointers between globals (one
 * to a pointer, a three-node struct chain, a thread_local pointing at a global), a global function pointer
 * and a table of them, the globals of a static library (lib/privst.c, -fPIC), __thread and _Thread_local
 * variables (also in the library), a constructor that must run once per copy on the rank that owns it, a
 * destructor function and an atexit handler that must run once per rank, on it, with its values. */
#include <stdlib.h>
#include "lib/privst.h"
#include "privtest.h"

enum { K_DTOR, K_ATEXIT };

int g_init = 7;                  /* .data */
int g_zero;                      /* .bss */
static int s_file = 3;           /* file-scope static */
static int s_file_zero;
int g_arr[4] = {1, 2, 3, 4};
int *p_g = &g_zero;              /* pointer to a global */
int **pp_g = &p_g;               /* pointer to a pointer to a global */
struct node {
    struct node *next;
    int v;
};
struct node n3 = {NULL, 30}, n2 = {&n3, 20}, n1 = {&n2, 10}; /* a chain */
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int (*fp)(int) = twice;          /* function pointer */
int (*fptab[2])(int) = {twice, thrice};

__thread int t_init = 11;        /* thread_locals: per rank in every variant but none */
static __thread int t_zero;
_Thread_local int t_c11 = 13;
__thread int *t_ptr = &g_init;   /* a thread_local initialized with a global's address */

static int ctor_runs;            /* constructor of the copy: ran once, on the rank that owns it */
static int ctor_slot = -2;
__attribute__((constructor)) static void c_ctor(void)
{
    ctor_runs++;
    ctor_slot = priv_here();
}

static int *fstat(void)
{
    static int fs = 5; /* function-scope static */
    return &fs;
}
static int fstat_zero(int set)
{
    static int z;
    if (set >= 0)
        z = set;
    return z;
}

/* The destructor function and the atexit handler: per rank under auto (the copy's fini array and atexit
 * list, run when the rank exits); under tls both are the process's: the one copy's destructor function, and
 * the handler each rank registers runs when the process ends, outside every rank. */
__attribute__((destructor)) static void c_dtor(void)
{
    priv_dtor_ran(K_DTOR, "the program's destructor function (g_init)", &g_init, g_init, 7, !MT_PRIVATIZE_TLS);
}
static void on_exit_handler(void)
{
    priv_dtor_ran(K_ATEXIT, "an atexit handler (t_init)", &t_init, t_init, 11, !MT_PRIVATIZE_TLS);
}

void priv_announce(void)
{
    privcount_expect(K_DTOR, "destructor function", !MT_PRIVATIZE_TLS);
    privcount_expect(K_ATEXIT, "atexit handler", 1);
    atexit(on_exit_handler);
}

const void *priv_addr(void) { return MT_PRIVATIZE_TLS ? (const void *)&t_init : (const void *)&g_zero; }

int priv_probe(int *per_rank)
{
    *per_rank = 1;
    return MT_PRIVATIZE_TLS ? t_c11 : g_zero;
}

#define CK(what, e, g) PRIV_CK(*errs, when, what, e, g)

void priv_check_initial(int *errs)
{
    const char *when = "initial";
    CK("ctor_runs", 1, ctor_runs);
    if (!MT_PRIVATIZE_NONE) /* constructors: the copy's, on its rank (auto); the process's (tls) */
        CK("constructor ran on", MT_PRIVATIZE_TLS ? -1 : priv_here(), ctor_slot);
    CK("g_init", 7, g_init);
    CK("g_zero", 0, g_zero);
    CK("s_file", 3, s_file);
    CK("s_file_zero", 0, s_file_zero);
    CK("g_arr[3]", 4, g_arr[3]);
    CK("p_g == &g_zero", 1, p_g == &g_zero);
    CK("*pp_g == &g_zero", 1, *pp_g == &g_zero);
    CK("n1.next->next->v", 30, n1.next->next->v);
    CK("n1.next == &n2", 1, n1.next == &n2);
    CK("fp(1)", 2, fp(1));
    CK("fptab[1](1)", 3, fptab[1](1));
    CK("*fstat()", 5, *fstat());
    CK("fstat_zero", 0, fstat_zero(-1));
    CK("t_init", 11, t_init);
    CK("t_zero", 0, t_zero);
    CK("t_c11", 13, t_c11);
    CK("t_ptr == &g_init", 1, t_ptr == &g_init);
    CK("privst_init", 16, privst_init);
    CK("privst_zero", 0, privst_zero());
    CK("*privst_ptr", 17, *privst_ptr);
    CK("privst_fp(4)", 4, privst_fp(4));
    CK("privst_fstat", 19, privst_fstat());
    CK("privst_tl", 18, privst_tl);
}

/* Pointers are rewired to other globals and function pointers swapped on odd values, so that they too
 * hold something that differs between ranks. */
void priv_set(int v)
{
    g_init = v;
    g_zero = v;
    s_file = v;
    s_file_zero = v;
    g_arr[3] = v;
    p_g = v & 1 ? &s_file : &g_zero;
    n3.v = v;
    n1.next = v & 1 ? &n3 : &n2;
    fp = v & 1 ? thrice : twice;
    fptab[0] = v & 1 ? thrice : twice;
    *fstat() = v;
    fstat_zero(v);
    t_init = v;
    t_zero = v;
    t_c11 = v;
    t_ptr = v & 1 ? &s_file : &g_init;
    privst_set(v);
}

void priv_check(const char *when, int own, int last, int *errs)
{
    int g = PRIV_G(own, last);
    CK("g_init", g, g_init);
    CK("g_zero", g, g_zero);
    CK("s_file", g, s_file);
    CK("s_file_zero", g, s_file_zero);
    CK("g_arr[3]", g, g_arr[3]);
    CK("p_g", 1, p_g == (g & 1 ? &s_file : &g_zero));
    CK("*p_g", g, *p_g);
    CK("**pp_g", g, **pp_g);
    CK("n1.next", 1, n1.next == (g & 1 ? &n3 : &n2));
    CK("n2.next->v", g, n2.next->v);
    CK("fp(1)", g & 1 ? 3 : 2, fp(1));
    CK("fptab[0](1)", g & 1 ? 3 : 2, fptab[0](1));
    CK("*fstat()", g, *fstat());
    CK("fstat_zero", g, fstat_zero(-1));
    CK("privst_init", g, privst_init);
    CK("privst_zero", g, privst_zero());
    CK("*privst_ptr", g, *privst_ptr);
    CK("privst_fstat", g, privst_fstat());
    /* thread_locals: per rank in every privatized variant */
    CK("t_init", own, t_init);
    CK("t_zero", own, t_zero);
    CK("t_c11", own, t_c11);
    CK("t_ptr", 1, t_ptr == (own & 1 ? &s_file : &g_init));
    CK("*t_ptr", g, *t_ptr);
    CK("privst_tl", own, privst_tl);
}

int main(int argc, char **argv) { return priv_main(argc, argv); }
