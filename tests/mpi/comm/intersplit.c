/* SPDX-License-Identifier: BSD-3-Clause */
/* Comm_split and Comm_create on an intercommunicator (MPI-3.1 6.4.2).  MPI_COMM_WORLD is cut into side A
 * (world ranks divisible by 3) and side B (the others), uneven at every size, joined by Intercomm_create
 * (needs 2 ranks or more).  Every expectation is computed from world ranks alone:
 *   - Comm_split with colors that some sides lack, MPI_UNDEFINED at the last rank, keys with ties (broken
 *     by the old local rank): a new intercommunicator per color held by both sides, MPI_COMM_NULL
 *     elsewhere; local and remote groups in key order, point-to-point to every remote rank, Allreduce
 *     (each side gets the other's sum) and Intercomm_merge + Allreduce over both sides;
 *   - many splits in a row, freed as they go (contexts of both sides keep agreeing);
 *   - Comm_split with one color and key 0 gives a communicator congruent to the original;
 *   - Comm_split_type(MPI_COMM_TYPE_SHARED) with reversed keys: an intercommunicator between both whole
 *     sides (one process: one shared-memory domain), local ranks reversed; MPI_UNDEFINED: MPI_COMM_NULL;
 *   - Comm_create with a reordered subgroup on each side; with MPI_GROUP_EMPTY on one side (MPI_COMM_NULL
 *     everywhere);
 *   - bad input: a group holding a remote rank (MPI_ERR_GROUP), a negative color (MPI_ERR_ARG). */
#include <stdbool.h>
#include "mtest.h"

static int side_of(int w) { return w % 3 == 0 ? 0 : 1; }

/* World ranks of side s, in local rank order (Intercomm_create below keeps world order). */
static int side_members(int s, int size, int *out)
{
    int n = 0;
    for (int w = 0; w < size; w++)
        if (side_of(w) == s)
            out[n++] = w;
    return n;
}

typedef struct split_rule {
    int ncolors, undef_last, key_mod, key_sign;
} split_rule;

static int color_of(const split_rule *s, int w, int size)
{
    if (s->undef_last && w == size - 1 && size > 2)
        return MPI_UNDEFINED;
    return (w / 2 + s->ncolors) % s->ncolors; /* w/2: neighbours share colors, sides differ per color */
}

static int key_of(const split_rule *s, int w) { return s->key_sign * ((w * 7) % s->key_mod); }

/* The members of side `s` with color `color`, ordered by (key, old local rank): world ranks in out. */
static int expected_group(const split_rule *r, int s, int color, int size, int *out)
{
    int *m = malloc(sizeof(int) * (size_t)size), n = side_members(s, size, m), k = 0;
    for (int i = 0; i < n; i++)
        if (color != MPI_UNDEFINED && color_of(r, m[i], size) == color)
            out[k++] = m[i]; /* old local rank order = world order */
    for (int i = 1; i < k; i++) /* stable insertion sort by key keeps old rank order on ties */
        for (int j = i; j > 0 && key_of(r, out[j - 1]) > key_of(r, out[j]); j--) {
            int x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    free(m);
    return k;
}

/* World ranks of group g, by translating through MPI_COMM_WORLD's group. */
static void world_ranks(MPI_Group g, int n, int *out)
{
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *idx = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, out);
    MPI_Group_free(&wg);
    free(idx);
}

/* Checks `ic` against the expected groups (world ranks): sizes, order, messages, collectives. */
static int check_inter(MPI_Comm ic, const int *lw, int nl, const int *rw, int nr, int wrank, const char *what)
{
    int errs = 0, flag, ls, rs, lr;
    MPI_Comm_test_inter(ic, &flag);
    MT_CHECK(errs, flag, "%s: not an intercommunicator", what);
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    MPI_Comm_rank(ic, &lr);
    if (ls != nl || rs != nr) {
        MT_ERR(errs, "%s: sizes %d/%d, expected %d/%d", what, ls, rs, nl, nr);
        return errs;
    }
    if (lr < 0 || lr >= nl || lw[lr] != wrank)
        MT_ERR(errs, "%s: local rank %d is not where world rank %d belongs", what, lr, wrank);
    int *got = malloc(sizeof(int) * (size_t)(nl + nr + 1));
    MPI_Group g;
    MPI_Comm_group(ic, &g);
    world_ranks(g, nl, got);
    MPI_Group_free(&g);
    for (int i = 0; i < nl; i++)
        if (got[i] != lw[i])
            MT_ERR(errs, "%s: local rank %d is world rank %d, expected %d", what, i, got[i], lw[i]);
    MPI_Comm_remote_group(ic, &g);
    world_ranks(g, nr, got);
    MPI_Group_free(&g);
    for (int i = 0; i < nr; i++)
        if (got[i] != rw[i])
            MT_ERR(errs, "%s: remote rank %d is world rank %d, expected %d", what, i, got[i], rw[i]);

    /* every rank sends its world rank to every remote rank and receives one from each */
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)nr);
    for (int r = 0; r < nr; r++)
        MPI_Isend(&wrank, 1, MPI_INT, r, 5, ic, &rq[r]);
    for (int r = 0; r < nr; r++) {
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, r, 5, ic, MPI_STATUS_IGNORE);
        if (v != rw[r])
            MT_ERR(errs, "%s: message from remote rank %d: %d, expected %d", what, r, v, rw[r]);
    }
    MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
    free(rq);

    long lsum = 0, rsum = 0, all = -1;
    for (int i = 0; i < nl; i++)
        lsum += lw[i];
    for (int i = 0; i < nr; i++)
        rsum += rw[i];
    long mine = wrank, sum = -1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, ic); /* each side gets the other side's sum */
    if (sum != rsum)
        MT_ERR(errs, "%s: Allreduce gave %ld, expected the remote sum %ld", what, sum, rsum);
    MPI_Comm merged;
    MPI_Intercomm_merge(ic, side_of(wrank), &merged);
    MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, merged);
    if (all != lsum + rsum)
        MT_ERR(errs, "%s: Allreduce over the merged groups gave %ld, expected %ld", what, all, lsum + rsum);
    MPI_Comm_free(&merged);
    free(got);
    return errs;
}

static int check_split(MPI_Comm inter, const split_rule *r, int wrank, int size, const char *what)
{
    int errs = 0, color = color_of(r, wrank, size), s = side_of(wrank);
    int *lw = malloc(sizeof(int) * (size_t)size), *rw = malloc(sizeof(int) * (size_t)size);
    int nl = expected_group(r, s, color, size, lw), nr = expected_group(r, 1 - s, color, size, rw);
    MPI_Comm ic;
    MPI_Comm_split(inter, color, key_of(r, wrank), &ic);
    bool expect_null = color == MPI_UNDEFINED || nl == 0 || nr == 0;
    if (expect_null != (ic == MPI_COMM_NULL))
        MT_ERR(errs, "%s: color %d: got %s, expected %s", what, color, ic == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator",
               expect_null ? "MPI_COMM_NULL" : "a communicator");
    else if (ic != MPI_COMM_NULL)
        errs += check_inter(ic, lw, nl, rw, nr, wrank, what);
    if (ic != MPI_COMM_NULL)
        MPI_Comm_free(&ic);
    free(lw);
    free(rw);
    return errs;
}

/* Comm_create: side A takes its odd local ranks in reverse order, side B its first half (at least one);
 * with `empty_b`, side B gives MPI_GROUP_EMPTY. */
static int check_create(MPI_Comm inter, int wrank, int size, bool empty_b, const char *what)
{
    int errs = 0, s = side_of(wrank);
    int *mem[2], n[2], *pick[2], np[2];
    for (int t = 0; t < 2; t++) {
        mem[t] = malloc(sizeof(int) * (size_t)size);
        pick[t] = malloc(sizeof(int) * (size_t)size); /* local ranks of the chosen members, in group order */
        n[t] = side_members(t, size, mem[t]);
        np[t] = 0;
    }
    for (int i = n[0] - 1; i >= 0; i--)
        if (i % 2 == 1)
            pick[0][np[0]++] = i;
    for (int i = 0; !empty_b && i < (n[1] + 1) / 2; i++)
        pick[1][np[1]++] = i;
    MPI_Group lg, g;
    MPI_Comm_group(inter, &lg);
    MPI_Group_incl(lg, np[s], pick[s], &g);
    if (s == 1 && empty_b) {
        MPI_Group_free(&g);
        g = MPI_GROUP_EMPTY;
    }
    MPI_Comm ic;
    MPI_Comm_create(inter, g, &ic);
    int me = -1, *lw = malloc(sizeof(int) * (size_t)size), *rw = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < np[s]; i++) {
        lw[i] = mem[s][pick[s][i]];
        if (lw[i] == wrank)
            me = i;
    }
    for (int i = 0; i < np[1 - s]; i++)
        rw[i] = mem[1 - s][pick[1 - s][i]];
    bool expect_null = me < 0 || np[0] == 0 || np[1] == 0;
    if (expect_null != (ic == MPI_COMM_NULL))
        MT_ERR(errs, "%s: got %s, expected %s", what, ic == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator",
               expect_null ? "MPI_COMM_NULL" : "a communicator");
    else if (ic != MPI_COMM_NULL)
        errs += check_inter(ic, lw, np[s], rw, np[1 - s], wrank, what);
    if (ic != MPI_COMM_NULL)
        MPI_Comm_free(&ic);
    if (g != MPI_GROUP_EMPTY)
        MPI_Group_free(&g);
    MPI_Group_free(&lg);
    for (int t = 0; t < 2; t++) {
        free(mem[t]);
        free(pick[t]);
    }
    free(lw);
    free(rw);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, wrank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return mt_finish(errs); /* an intercommunicator needs two non-empty groups */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, side_of(wrank), wrank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side_of(wrank) == 0 ? 1 : 0, 17, &inter);

    const split_rule rules[] = {
        {3, 1, 4, 1},  /* three colors, ties among keys */
        {2, 0, 5, -1}, /* reversed keys */
        {5, 1, 1, 1},  /* all keys equal: old rank order; colors some side lacks at small sizes */
        {1, 0, 3, 1},  /* one color: the whole intercommunicator, reordered */
    };
    char what[64];
    for (int i = 0; i < (int)(sizeof rules / sizeof rules[0]); i++) {
        snprintf(what, sizeof what, "split rule %d", i);
        errs += check_split(inter, &rules[i], wrank, size, what);
    }
    for (int i = 0; i < 12; i++) { /* contexts keep agreeing over many splits */
        split_rule r = {1 + i % 4, i % 2, 2 + i % 3, i % 2 ? -1 : 1};
        snprintf(what, sizeof what, "split round %d", i);
        errs += check_split(inter, &r, wrank, size, what);
    }

    MPI_Comm same;
    int res;
    MPI_Comm_split(inter, 0, 0, &same);
    MPI_Comm_compare(inter, same, &res);
    if (res != MPI_CONGRUENT)
        MT_ERR(errs, "split with one color and key 0: compare gave %d, expected MPI_CONGRUENT", res);
    MPI_Comm_free(&same);

    MPI_Comm shm, none;
    int lr, ls, rs, sr, ss, srs, rsum = -1, want = 0, nA = 0;
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_size(inter, &ls);
    MPI_Comm_remote_size(inter, &rs);
    /* one process: one shared-memory domain, both whole sides.  Between processes each process is one
     * (its ranks of each side): not what the checks below expect, so a job of several skips them. */
    bool one_proc = mt_nprocs() == 1;
    MPI_Comm_split_type(inter, one_proc ? MPI_COMM_TYPE_SHARED : MPI_UNDEFINED, -lr, MPI_INFO_NULL, &shm);
    MPI_Comm_split_type(inter, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none);
    if (none != MPI_COMM_NULL)
        MT_ERR(errs, "Comm_split_type(MPI_UNDEFINED) on an intercommunicator did not give MPI_COMM_NULL");
    if (one_proc) {
        MPI_Comm_rank(shm, &sr);
        MPI_Comm_size(shm, &ss);
        MPI_Comm_remote_size(shm, &srs);
        if (ss != ls || srs != rs || sr != ls - 1 - lr)
            MT_ERR(errs, "split_type shared: rank %d of %d, remote %d; expected %d of %d, remote %d", sr, ss, srs,
                   ls - 1 - lr, ls, rs);
        for (int w = 0; w < size; w++)
            if (side_of(w) != side_of(wrank)) {
                want += w;
                nA++;
            }
        MPI_Allreduce(&wrank, &rsum, 1, MPI_INT, MPI_SUM, shm);
        if (rsum != want || nA != rs)
            MT_ERR(errs, "split_type shared: allreduce gave %d, expected the other side's sum %d", rsum, want);
        MPI_Comm_free(&shm);
    }

    errs += check_create(inter, wrank, size, false, "create");
    errs += check_create(inter, wrank, size, true, "create, B empty");

    /* bad input: every rank makes the same mistake, so nobody waits for a partner */
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Group rg;
    MPI_Comm bad = MPI_COMM_NULL;
    MPI_Comm_remote_group(inter, &rg);
    int rc = MPI_Comm_create(inter, rg, &bad), cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_GROUP)
        MT_ERR(errs, "Comm_create with the remote group: class %d, expected MPI_ERR_GROUP", cls);
    MPI_Group_free(&rg);
    rc = MPI_Comm_split(inter, -5, 0, &bad);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_ARG && !MT_MPICH_BUGS) /* MPICH 4.0 does not check the color on an intercommunicator */
        MT_ERR(errs, "Comm_split with color -5: class %d, expected MPI_ERR_ARG", cls);

    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mt_finish(errs);
}
