/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Finalize deletes the attributes of MPI_COMM_SELF first, last set first, then those of MPI_COMM_WORLD
 * (last set first), while MPI still works: the callbacks see MPI_Finalized false and one of them makes a
 * collective call on MPI_COMM_WORLD.  20 attributes on SELF (a hash table would not keep the order), some
 * with their keyval already freed.  Each rank records its own calls (extra_state points into its main's
 * frame) and checks them after MPI_Finalize; a rank that finds an error exits 1. */
#include <stdint.h>
#include "mtest.h"

#define NSELF 20
#define NWORLD 5

typedef struct rec {
    int calls[NSELF + NWORLD]; /* the attribute values in the order their delete callbacks ran */
    int n;
    int bad; /* callbacks that saw MPI finalized, a wrong communicator or a wrong sum */
    int rank, size;
} rec;

static int del_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    rec *r = extra;
    int v = (int)(intptr_t)val, fin = 1;
    MPI_Finalized(&fin);
    if (fin || comm != (v < NSELF ? MPI_COMM_SELF : MPI_COMM_WORLD))
        r->bad++;
    if (v == NSELF + 2) { /* MPI still works: a collective over every rank, in its callback */
        int x = r->rank, sum = -1;
        if (MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
            sum != r->size * (r->size - 1) / 2)
            r->bad++;
    }
    if (r->n < NSELF + NWORLD)
        r->calls[r->n] = v;
    r->n++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, keys[NSELF + NWORLD];
    rec r = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    r.rank = rank;
    r.size = size;
    /* WORLD's attributes are set between SELF's: only the object, not the time, decides which go first */
    for (int i = 0; i < NSELF + NWORLD; i++)
        MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &keys[i], &r));
    for (int i = 0; i < NSELF; i++) {
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, keys[i], (void *)(intptr_t)i));
        if (i % 4 == 0 && i / 4 < NWORLD)
            MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, keys[NSELF + i / 4],
                                                (void *)(intptr_t)(NSELF + i / 4)));
    }
    for (int i = 0; i < NSELF + NWORLD; i += 3) /* a freed keyval still has its attribute deleted */
        MT_CHECK_RC(errs, MPI_Comm_free_keyval(&keys[i]));
    MT_CHECK_INT(errs, "delete calls before MPI_Finalize", 0, r.n);
    if (errs) /* report through the usual path */
        return mt_finish(errs);

    MPI_Finalize();
    int bad = 0;
    if (r.n != NSELF + NWORLD) {
        fprintf(stderr, "[rank %d] %d delete calls, expected %d\n", rank, r.n, NSELF + NWORLD);
        bad++;
    }
    for (int i = 0; i < r.n && i < NSELF + NWORLD; i++) {
        int want = i < NSELF ? NSELF - 1 - i : NSELF + NWORLD - 1 - (i - NSELF);
        if (r.calls[i] != want) {
            fprintf(stderr, "[rank %d] delete call %d was for attribute %d, expected %d\n", rank, i, r.calls[i], want);
            bad++;
        }
    }
    if (r.bad) {
        fprintf(stderr, "[rank %d] %d delete callbacks found MPI finalized, a wrong comm or a wrong sum\n", rank,
                r.bad);
        bad++;
    }
    if (rank == 0)
        printf(bad ? " Found %d errors\n" : " No Errors\n", bad);
    return bad ? 1 : 0;
}
