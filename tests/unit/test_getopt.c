/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi's per-rank getopt (src/img/getopt.c) against glibc's own: every combination of option strings (plain,
 * '+', '-', ':', optional arguments, "W;"), long option tables (flags, abbreviations, ambiguous prefixes,
 * required and optional arguments), argument lists (grouped options, attached and separate arguments,
 * non-options to permute, "--", "-", missing arguments, unknown options), entry points (getopt,
 * __posix_getopt, getopt_long, getopt_long_only), opterr on and off and POSIXLY_CORRECT set or not must give
 * the same sequence of results, optind, optarg, optopt, long option indexes and flags, the same messages
 * and the same final order of argv; also after rescanning with optind = 1 and optind = 0. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "img/libc.h"

extern int __posix_getopt(int argc, char *const *argv, const char *opts);

enum { E_GETOPT, E_POSIX, E_LONG, E_LONG_ONLY, E_N };
static const char *const entry_name[] = {"getopt", "__posix_getopt", "getopt_long", "getopt_long_only"};

static int flag_a, flag_b;
static const struct option longs1[] = {
    {"verbose", no_argument, NULL, 'v'},
    {"value", required_argument, NULL, 'V'},
    {"opt", optional_argument, NULL, 'o'},
    {"flag", no_argument, &flag_a, 7},
    {"flagb", no_argument, &flag_b, 9},
    {"bee", required_argument, NULL, 'b'},
    {"alpha", no_argument, NULL, 'a'},
    {"alps", no_argument, NULL, 'a'}, /* same as alpha: not ambiguous for getopt_long */
    {NULL, 0, NULL, 0},
};
static const struct option longs2[] = {
    {"foo", no_argument, NULL, 1000},
    {"fubar", required_argument, NULL, 1001},
    {"c", no_argument, NULL, 1002},
    {NULL, 0, NULL, 0},
};

static const char *const optstrings[] = {"ab:c::v", "+ab:c", "-ab:c::", ":ab:c", "+:ab::", "-:a", "W;ab:", "f:c", ""};

/* argument lists, NULL-separated, each ending with an extra NULL; the program name is added */
static const char *const lists[][12] = {
    {"-a", "-b", "x", "file", NULL},
    {"file1", "-a", "file2", "-bval", "file3", NULL},
    {"-abx", "-c", "rest", NULL},
    {"-acopt", "--", "-b", "x", NULL},
    {"a1", "a2", "--", "-a", NULL},
    {"-", "-a", "-", "-b", NULL},
    {"-b", NULL},
    {"-x", "-a", "-:", "-;", NULL},
    {"--verbose", "--val=3", "--value", "4", "--opt", "--opt=9", "f", NULL},
    {"--flag", "--flagb", "--fl", "--al", "--v", NULL},
    {"--verbose=1", "--value", NULL},
    {"--unknown", "--bee", "q", "p1", "-ab", "y", NULL},
    {"-foo", "-fubar=2", "-f", "x", "-c", "-fu", "k", NULL},
    {"-W", "verbose", "-Wvalue=5", "-W", NULL},
    {"-Wfl", "-W", "nope", "-Wflagb=1", NULL},
    {"x", "--", NULL},
    {"-vvv", "--", "--", NULL},
    {"one", "two", NULL},
    {"--=x", "--", NULL},
};

typedef struct {
    char out[8192];
    size_t len;
} trace;

static void tr(trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tr(trace *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->out + t->len, sizeof t->out - t->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n < sizeof t->out - t->len ? (size_t)n : sizeof t->out - t->len - 1;
}

static int call(img_libc *g, int e, int argc, char **argv, const char *opts, const struct option *longs, int *ind)
{
    if (g == NULL) {
        switch (e) {
        case E_GETOPT: return getopt(argc, argv, opts);
        case E_POSIX: return __posix_getopt(argc, argv, opts);
        case E_LONG: return getopt_long(argc, argv, opts, longs, ind);
        default: return getopt_long_only(argc, argv, opts, longs, ind);
        }
    }
    return vmpi_img_getopt(g, argc, argv, opts, e >= E_LONG ? longs : NULL, e >= E_LONG ? ind : NULL,
                           e == E_LONG_ONLY, e == E_POSIX);
}

/* One scan to -1 (at most 40 calls), recorded in t; g NULL: glibc's. */
static void scan(trace *t, img_libc *g, int e, int argc, char **argv, const char *opts, const struct option *longs)
{
    for (int k = 0; k < 40; k++) {
        int ind = -5;
        flag_a = flag_b = 0;
        int c = call(g, e, argc, argv, opts, longs, &ind);
        int oi = g ? g->optind : optind, oo = g ? g->optopt : optopt;
        char *oa = g ? g->optarg : optarg;
        tr(t, "[%d optind=%d optopt=%d ind=%d flags=%d,%d optarg=%s]", c, oi, oo, ind, flag_a, flag_b,
           oa ? oa : "(null)");
        if (oa) { /* the same string, at the same place */
            long which = -1;
            for (int i = 0; i < argc; i++)
                if (oa >= argv[i] && oa <= argv[i] + strlen(argv[i]))
                    which = (long)(argv[i] - argv[0]) * 1000 + (oa - argv[i]);
            tr(t, "@%ld", which);
        }
        if (c == -1)
            break;
    }
}

static int run_case(const char *const *list, const char *opts, const struct option *longs, int e, int opterr_v)
{
    /* both argument vectors point at the same strings, laid out in one block so positions compare */
    static char block[4096];
    char *args[16], *mine[16], *theirs[16];
    int argc = 0;
    size_t at = 0;
    const char *name = "prog";
    for (int i = -1; i < 0 || list[i]; i++) {
        const char *s = i < 0 ? name : list[i];
        args[argc++] = memcpy(block + at, s, strlen(s) + 1);
        at += strlen(s) + 1;
    }
    args[argc] = NULL;
    memcpy(mine, args, sizeof(char *) * (size_t)(argc + 1));
    memcpy(theirs, args, sizeof(char *) * (size_t)(argc + 1));
    static trace ta, tb;
    int bad = 0;
    static img_libc g = {.optind = 1, .opterr = 1, .optopt = '?'}; /* one state throughout, as glibc's */
    g.opterr = opterr_v;
    /* three scans: a fresh one, a rescan with optind = 1 (no reinitialization), one with optind = 0 */
    for (int pass = 0; pass < 3; pass++) {
        memset(&ta, 0, sizeof ta);
        memset(&tb, 0, sizeof tb);
        char *ea = NULL, *eb = NULL;
        size_t la = 0, lb = 0;
        FILE *saved = stderr;
        optind = pass == 1 ? 1 : 0;
        opterr = opterr_v;
        stderr = open_memstream(&ea, &la);
        scan(&ta, NULL, e, argc, theirs, opts, longs);
        fclose(stderr);
        g.optind = pass == 1 ? 1 : 0;
        stderr = open_memstream(&eb, &lb);
        scan(&tb, &g, e, argc, mine, opts, longs);
        fclose(stderr);
        stderr = saved;
        const char *what = NULL;
        if (strcmp(ta.out, tb.out) != 0)
            what = "results";
        else if (la != lb || memcmp(ea, eb, la) != 0)
            what = "messages";
        else if (memcmp(theirs, mine, sizeof(char *) * (size_t)argc) != 0)
            what = "argv order";
        if (what) {
            bad++;
            fprintf(stderr, "FAIL: %s, opts \"%s\", %s, opterr %d, pass %d: %s differ\n", entry_name[e], opts,
                    longs == longs1 ? "longs1" : "longs2", opterr_v, pass, what);
            fprintf(stderr, "  args:");
            for (int i = 1; i < argc; i++)
                fprintf(stderr, " %s", args[i]);
            fprintf(stderr, "\n  glibc: %s\n%s  vmpi:  %s\n%s", ta.out, ea, tb.out, eb);
        }
        free(ea);
        free(eb);
    }
    return bad;
}

int main(void)
{
    int bad = 0, n = 0;
    for (int posixly = 0; posixly < 2; posixly++) {
        if (posixly)
            setenv("POSIXLY_CORRECT", "1", 1);
        else
            unsetenv("POSIXLY_CORRECT");
        for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
            for (size_t o = 0; o < sizeof optstrings / sizeof optstrings[0]; o++)
                for (int e = 0; e < E_N; e++)
                    for (int lo = 0; lo < (e >= E_LONG ? 2 : 1); lo++)
                        for (int oe = 0; oe < 2; oe++, n++)
                            bad += run_case(lists[l], optstrings[o], lo ? longs2 : longs1, e, oe);
    }
    printf("%d cases, %d differ\n", n, bad);
    if (bad == 0)
        printf(" No Errors\n");
    return bad != 0;
}
