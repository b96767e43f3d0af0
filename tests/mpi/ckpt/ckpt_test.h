/* SPDX-License-Identifier: BSD-3-Clause */
/* What the ckpt/ test programs share (C and C++): the checkpoint directory (argv[1], or a fresh one that
 * is removed at the end), the checkpoint itself (it says "NAME: restarted" in a restarted job, and with
 * `kill` ends a job that was not restarted with SIGKILL right after it, as tests/tools/ckpt.sh expects). */
#ifndef CKPT_TEST_H
#define CKPT_TEST_H

#include <dirent.h>
#include <signal.h>
#include <unistd.h>
#include "mtest.h"

typedef struct ckpt_test {
    char dir[512];    /* where to checkpoint; "" in sanitizer builds without a directory given */
    char parent[512]; /* the fresh directory made for it, removed at the end; "" when given */
    int kill_after;
} ckpt_test;

/* `ckpt_test_open(&t, argc, argv, "NAME")`: collective. */
static inline void ckpt_test_open(ckpt_test *t, int argc, char **argv, const char *name)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    t->dir[0] = t->parent[0] = '\0';
    t->kill_after = argc >= 3 && !strcmp(argv[2], "kill");
    if (argc >= 2) {
        snprintf(t->dir, sizeof t->dir, "%s", argv[1]);
    } else if (!MT_SANITIZE) {
        if (rank == 0) {
            const char *tmp = getenv("TMPDIR");
            snprintf(t->parent, sizeof t->parent, "%s/vmpi-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
            if (!mkdtemp(t->parent)) {
                perror("mkdtemp");
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            snprintf(t->dir, sizeof t->dir, "%s/ck", t->parent);
        }
        MPI_Bcast(t->dir, sizeof t->dir, MPI_CHAR, 0, MPI_COMM_WORLD);
        MPI_Bcast(t->parent, sizeof t->parent, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
}

/* AMPI_Migrate with `hints` (their ampi_checkpoint set here to to_file=DIR; MPI_INFO_NULL: a new info),
 * or a plain migration point without a directory.  Returns whether this is a restarted job; counts an
 * error when the call fails. */
static inline int ckpt_test_point(const ckpt_test *t, MPI_Info hints, const char *name, int *errs)
{
    int rank, restarted = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!t->dir[0]) {
        mt_migrate();
        return 0;
    }
    MPI_Info info = hints;
    if (info == MPI_INFO_NULL)
        MPI_Info_create(&info);
    char val[600];
    snprintf(val, sizeof val, "to_file=%s", t->dir);
    MPI_Info_set(info, "ampi_checkpoint", val);
    int rc = AMPI_Migrate(info);
    if (hints == MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (rc != MPI_SUCCESS)
        MT_ERR(*errs, "AMPI_Migrate(ampi_checkpoint=%s) returned %d", val, rc);
    VMPIX_Restarted(&restarted);
    if (restarted && rank == 0) {
        printf("%s: restarted\n", name);
        fflush(stdout);
    }
    if (t->kill_after && !restarted) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            fflush(stdout);
            kill(getpid(), SIGKILL);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
    }
    return restarted;
}

/* Collective: removes the fresh directory (it holds checkpoint files only). */
static inline void ckpt_test_close(const ckpt_test *t)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!t->parent[0] || rank != 0)
        return;
    DIR *d = opendir(t->dir);
    char path[1100];
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", t->dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(t->dir);
    rmdir(t->parent);
}

#endif
