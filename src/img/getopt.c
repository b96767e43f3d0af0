/* SPDX-License-Identifier: BSD-3-Clause */
/* getopt, getopt_long and getopt_long_only as glibc behaves (the same results, the same reordering of argv,
 * the same messages, translated by glibc's catalog), on a rank's state instead of glibc's one per process:
 * glibc keeps its scanning position in a static no reentrant entry point reaches.  tests/unit/test_getopt.c
 * compares the two on every kind of argument list.
 *
 * The ordering: PERMUTE (the default) skips non-options and moves them after the options; REQUIRE_ORDER
 * ('+' first in the option string, POSIXLY_CORRECT, __posix_getopt) stops at the first non-option;
 * IN_ORDER ('-' first) returns each non-option as the argument of option 1. */
#include <libintl.h>
#include <stdio.h>
#include <string.h>
#include "img/libc.h"

enum { PERMUTE, REQUIRE_ORDER, IN_ORDER };

#define MSG(s) dgettext("libc", s)

static bool nonoption(const char *a) { return a[0] != '-' || a[1] == '\0'; }

static void reverse(char **argv, int lo, int hi)
{
    for (hi--; lo < hi; lo++, hi--) {
        char *t = argv[lo];
        argv[lo] = argv[hi];
        argv[hi] = t;
    }
}

/* The options found after the skipped non-options (argv[last..optind)) go before them (argv[first..last)),
 * each group in its order. */
static void options_first(char **argv, img_libc *g)
{
    reverse(argv, g->first, g->last);
    reverse(argv, g->last, g->optind);
    reverse(argv, g->first, g->optind);
    g->first += g->optind - g->last;
    g->last = g->optind;
}

/* `g->next` is a long option's name (and maybe "=value") after `prefix` ("--", "-" or "-W "): an exact name,
 * else an unambiguous abbreviation.  -1: not a long option (getopt_long_only tries a short one). */
static int long_option(img_libc *g, int argc, char **argv, const char *opts, const struct option *longs,
                       int *longind, bool long_only, bool report, const char *prefix)
{
    const char *end = g->next + strcspn(g->next, "=");
    size_t len = (size_t)(end - g->next);
    const struct option *found = NULL;
    int idx = -1;
    for (int i = 0; longs[i].name; i++)
        if (strncmp(longs[i].name, g->next, len) == 0 && strlen(longs[i].name) == len) {
            found = &longs[i];
            idx = i;
            break;
        }
    if (found == NULL) {
        /* abbreviations: ambiguous if two differ (with getopt_long_only, if there are two at all) */
        bool ambiguous = false;
        for (int i = 0; longs[i].name; i++) {
            const struct option *p = &longs[i];
            if (strncmp(p->name, g->next, len) != 0)
                continue;
            if (found == NULL) {
                found = p;
                idx = i;
            } else if (long_only || p->has_arg != found->has_arg || p->flag != found->flag || p->val != found->val) {
                ambiguous = true;
            }
        }
        if (ambiguous) {
            if (report) {
                fprintf(stderr, MSG("%s: option '%s%s' is ambiguous; possibilities:"), argv[0], prefix, g->next);
                for (int i = 0; longs[i].name; i++) {
                    const struct option *p = &longs[i];
                    if (strncmp(p->name, g->next, len) == 0 &&
                        (p == found || long_only || p->has_arg != found->has_arg || p->flag != found->flag ||
                         p->val != found->val))
                        fprintf(stderr, " '%s%s'", prefix, p->name);
                }
                fprintf(stderr, "\n");
            }
            g->next += strlen(g->next);
            g->optind++;
            g->optopt_own = 0;
            return '?';
        }
    }
    if (found == NULL) {
        if (long_only && argv[g->optind][1] != '-' && strchr(opts, *g->next) != NULL)
            return -1;
        if (report)
            fprintf(stderr, MSG("%s: unrecognized option '%s%s'\n"), argv[0], prefix, g->next);
        g->next = NULL;
        g->optind++;
        g->optopt_own = 0;
        return '?';
    }
    g->optind++;
    g->next = NULL;
    if (*end != '\0') {
        if (found->has_arg == no_argument) {
            if (report)
                fprintf(stderr, MSG("%s: option '%s%s' doesn't allow an argument\n"), argv[0], prefix, found->name);
            g->optopt_own = found->val;
            return '?';
        }
        g->optarg = (char *)end + 1;
    } else if (found->has_arg == required_argument) {
        if (g->optind >= argc) {
            if (report)
                fprintf(stderr, MSG("%s: option '%s%s' requires an argument\n"), argv[0], prefix, found->name);
            g->optopt_own = found->val;
            return opts[0] == ':' ? ':' : '?';
        }
        g->optarg = argv[g->optind++];
    }
    if (longind)
        *longind = idx;
    if (found->flag) {
        *found->flag = found->val;
        return 0;
    }
    return found->val;
}

/* Moves to the next element that holds options, permuting as the ordering says.  0: g->next is its first
 * option character; else what getopt returns (-1 at the end, 1 for a non-option in order, a long option's). */
static int next_element(img_libc *g, int argc, char **argv, const char *opts, const struct option *longs,
                        int *longind, bool long_only, bool report, bool *done)
{
    *done = true;
    /* the caller may have moved optind back */
    if (g->last > g->optind)
        g->last = g->optind;
    if (g->first > g->optind)
        g->first = g->optind;
    if (g->order == PERMUTE) {
        if (g->first != g->last && g->last != g->optind)
            options_first(argv, g);
        else if (g->last != g->optind)
            g->first = g->optind;
        while (g->optind < argc && nonoption(argv[g->optind]))
            g->optind++;
        g->last = g->optind;
    }
    if (g->optind != argc && strcmp(argv[g->optind], "--") == 0) { /* the end of the options */
        g->optind++;
        if (g->first != g->last && g->last != g->optind)
            options_first(argv, g);
        else if (g->first == g->last)
            g->first = g->optind;
        g->last = argc;
        g->optind = argc;
    }
    if (g->optind == argc) { /* done: optind at the non-options moved to the end */
        if (g->first != g->last)
            g->optind = g->first;
        return -1;
    }
    if (nonoption(argv[g->optind])) {
        if (g->order == REQUIRE_ORDER)
            return -1;
        g->optarg = argv[g->optind++];
        return 1;
    }
    const char *a = argv[g->optind];
    if (longs && a[1] == '-') {
        g->next = (char *)a + 2;
        return long_option(g, argc, argv, opts, longs, longind, long_only, report, "--");
    }
    /* with getopt_long_only, "-f" where f is a short option is that option; "-fu" may abbreviate "--fubar" */
    if (longs && long_only && (a[2] != '\0' || strchr(opts, a[1]) == NULL)) {
        g->next = (char *)a + 1;
        int c = long_option(g, argc, argv, opts, longs, longind, long_only, report, "-");
        if (c != -1)
            return c;
    }
    g->next = (char *)a + 1;
    *done = false;
    return 0;
}

static int scan(img_libc *g, int argc, char **argv, const char *opts, const struct option *longs, int *longind,
                bool long_only, bool posix)
{
    bool report = g->opterr != 0;
    if (argc < 1)
        return -1;
    g->optarg = NULL;
    if (g->optind == 0 || !g->started) { /* a new scan */
        if (g->optind == 0)
            g->optind = 1;
        g->first = g->last = g->optind;
        g->next = NULL;
        g->started = true;
        if (opts[0] == '-')
            g->order = IN_ORDER;
        else if (opts[0] == '+' || posix || getenv("POSIXLY_CORRECT"))
            g->order = REQUIRE_ORDER;
        else
            g->order = PERMUTE;
    }
    if (opts[0] == '-' || opts[0] == '+')
        opts++;
    if (opts[0] == ':')
        report = false;
    if (g->next == NULL || *g->next == '\0') {
        bool done;
        int r = next_element(g, argc, argv, opts, longs, longind, long_only, report, &done);
        if (done)
            return r;
    }
    char c = *g->next++;
    const char *spec = strchr(opts, c);
    if (*g->next == '\0') /* the element's last character: optind moves on */
        g->optind++;
    if (spec == NULL || c == ':' || c == ';') {
        if (report)
            fprintf(stderr, MSG("%s: invalid option -- '%c'\n"), argv[0], c);
        g->optopt_own = c;
        return '?';
    }
    if (spec[0] == 'W' && spec[1] == ';' && longs != NULL) { /* "-W foo" means "--foo" */
        if (*g->next != '\0') {
            g->optarg = g->next;
        } else if (g->optind == argc) {
            if (report)
                fprintf(stderr, MSG("%s: option requires an argument -- '%c'\n"), argv[0], c);
            g->optopt_own = c;
            return opts[0] == ':' ? ':' : '?';
        } else {
            g->optarg = argv[g->optind];
        }
        g->next = g->optarg;
        g->optarg = NULL;
        return long_option(g, argc, argv, opts, longs, longind, false, report, "-W ");
    }
    if (spec[1] == ':') {
        if (*g->next != '\0') { /* the rest of the element */
            g->optarg = g->next;
            g->optind++;
        } else if (spec[2] == ':') { /* optional, and absent */
            g->optarg = NULL;
        } else if (g->optind == argc) {
            if (report)
                fprintf(stderr, MSG("%s: option requires an argument -- '%c'\n"), argv[0], c);
            g->optopt_own = c;
            c = opts[0] == ':' ? ':' : '?';
        } else { /* the next element */
            g->optarg = argv[g->optind++];
        }
        g->next = NULL;
    }
    return c;
}

int vmpi_img_getopt(img_libc *g, int argc, char **argv, const char *opts, const struct option *longs,
                    int *longind, bool long_only, bool posix)
{
    int c = scan(g, argc, argv, opts, longs, longind, long_only, posix);
    g->optopt = g->optopt_own; /* glibc keeps its own and copies it to optopt after every call */
    return c;
}
