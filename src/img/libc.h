/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the img layer: the C library's hidden state, per rank (libc.c, getopt.c).  A copy of the program
 * calls these layer's functions instead of the C library's rand, random, drand48, strtok and getopt families
 * (image.c binds them when it resolves the copy's undefined symbols), and they keep the state in the rank's
 * record, in its slot: it moves and is checkpointed with the rank.  The results are glibc's, computed by its
 * reentrant forms from the rank's state, so a rank sees what one process of a process-based MPI sees. */
#ifndef VMPI_IMG_LIBC_H
#define VMPI_IMG_LIBC_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct img_libc {
    /* getopt's globals: with -privatize=auto the copy's optind, optarg, opterr and optopt are these */
    int optind, opterr, optopt;
    char *optarg;
    /* getopt's position: the rest of a group of short options, the non-options skipped (argv[first..last)),
     * the ordering, and whether a scan has started */
    char *next;
    int first, last, order;
    int optopt_own; /* the last unknown option character, copied to optopt after every call (0 at first) */
    bool started;
    char *strtok_pos;
    bool random_ready; /* random's table is set up at the first use (glibc's initial one is initstate(1)'s) */
    struct random_data random;
    int32_t random_table[32];
    struct drand48_data d48; /* all zeros is glibc's initial state */
} img_libc;

/* A function bound in place of the C library's `name` for the running method, or NULL. */
void *vmpi_img_libc_fn(const char *name);
/* The offset in img_libc of the variable bound in place of the C library's `name` (auto), or -1. */
long vmpi_img_libc_var(const char *name);
/* A fresh record's getopt globals as glibc's start. */
void vmpi_img_libc_init(img_libc *s);

/* getopt.c: glibc's getopt, getopt_long and getopt_long_only on the state `g` (`posix`: __posix_getopt, which
 * stops at the first non-option). */
int vmpi_img_getopt(img_libc *g, int argc, char **argv, const char *opts, const struct option *longs,
                    int *longind, bool long_only, bool posix);

#endif
