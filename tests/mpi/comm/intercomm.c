/* SPDX-License-Identifier: BSD-3-Clause */
/* Intercommunicators: MPI_COMM_WORLD split into evens and odds (needs 2 ranks or more), joined with
 * Intercomm_create (leaders: local rank 0, world ranks 0 and 1), then:
 *   - Comm_test_inter, Comm_remote_size, Comm_remote_group (members checked), Comm_size/rank local;
 *   - point-to-point across: every rank sends to remote rank (my rank % remote size) and receives from every
 *     remote rank that targets it, with MPI_ANY_SOURCE: the status names the remote rank;
 *   - Comm_dup of the intercommunicator works the same and is isolated;
 *   - Intercomm_merge with high = (even group ? 0 : 1), so evens come first, and the reverse; the merged
 *     ranks are checked and an Allreduce over the merged communicator gives the sum of world ranks;
 *   - Comm_compare of two intercommunicators, MPI_ERR_COMM for Comm_remote_size on an intracommunicator. */
#include "mtest.h"

static int exchange(MPI_Comm inter, int rank_in_world, const char *what)
{
    int errs = 0, lr, ls, rs;
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_size(inter, &ls);
    MPI_Comm_remote_size(inter, &rs);
    int dest = lr % rs, expect = 0;
    for (int r = 0; r < rs; r++)
        expect += r % ls == lr; /* remote ranks that target me */
    MPI_Request rq;
    int payload = rank_in_world;
    MPI_Isend(&payload, 1, MPI_INT, dest, 3, inter, &rq);
    for (int i = 0; i < expect; i++) {
        int v = -1;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, inter, &st);
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= rs || st.MPI_SOURCE % ls != lr)
            MT_ERR(errs, "%s: message from remote rank %d was not meant for me", what, st.MPI_SOURCE);
    }
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    return errs;
}

static int check_merged(MPI_Comm m, int evens_first, int rank, int size, const char *what)
{
    int errs = 0, mr, ms, sum = 0, expect_rank;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    int nev = (size + 1) / 2, nodd = size / 2;
    if (rank % 2 == 0)
        expect_rank = evens_first ? rank / 2 : nodd + rank / 2;
    else
        expect_rank = evens_first ? nev + rank / 2 : rank / 2;
    if (ms != size || mr != expect_rank)
        MT_ERR(errs, "%s: rank %d of %d, expected %d of %d", what, mr, ms, expect_rank, size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, m);
    if (sum != size * (size - 1) / 2)
        MT_ERR(errs, "%s: allreduce %d", what, sum);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, res;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return mt_finish(errs); /* an intercommunicator needs two non-empty groups */
    MPI_Comm half, inter, inter2, merged;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99, &inter);
    MPI_Comm_test_inter(inter, &flag);
    if (!flag)
        MT_ERR(errs, "Comm_test_inter says no");
    MPI_Comm_test_inter(half, &flag);
    if (flag)
        MT_ERR(errs, "Comm_test_inter says an intracommunicator is inter");
    int ls, rs;
    MPI_Comm_size(inter, &ls);
    MPI_Comm_remote_size(inter, &rs);
    if (ls != (rank % 2 ? size / 2 : (size + 1) / 2) || rs != size - ls)
        MT_ERR(errs, "local/remote sizes %d/%d", ls, rs);
    MPI_Group rg, wg;
    MPI_Comm_remote_group(inter, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int r = 0; r < rs; r++) {
        int w;
        MPI_Group_translate_ranks(rg, 1, &r, wg, &w);
        if (w != 2 * r + (rank % 2 ? 0 : 1))
            MT_ERR(errs, "remote rank %d is world rank %d", r, w);
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    errs += exchange(inter, rank, "intercomm");
    MPI_Comm_dup(inter, &inter2);
    errs += exchange(inter2, rank, "dup of intercomm");
    MPI_Comm_compare(inter, inter2, &res);
    if (res != MPI_CONGRUENT)
        MT_ERR(errs, "compare(inter, dup) = %d", res);

    MPI_Intercomm_merge(inter, rank % 2, &merged);
    errs += check_merged(merged, 1, rank, size, "merge evens low");
    MPI_Comm_free(&merged);
    MPI_Intercomm_merge(inter2, rank % 2 == 0, &merged);
    errs += check_merged(merged, 0, rank, size, "merge evens high");
    MPI_Comm_free(&merged);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Comm_remote_size(MPI_COMM_WORLD, &rs) != MPI_ERR_COMM)
        MT_ERR(errs, "remote size of an intracommunicator did not give MPI_ERR_COMM");
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mt_finish(errs);
}
