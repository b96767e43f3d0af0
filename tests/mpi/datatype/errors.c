/* SPDX-License-Identifier: BSD-3-Clause */
/* Error classes of the datatype functions under MPI_ERRORS_RETURN: MPI_ERR_TYPE for uncommitted, freed,
 * NULL and predefined-where-derived-needed types; MPI_ERR_COUNT for negative counts and block lengths;
 * MPI_ERR_ARG for NULL outputs, bad subarray/darray arguments, too small get_contents arrays and an unknown
 * data representation; MPI_ERR_RANK for a darray rank outside the grid; MPI_ERR_TRUNCATE for packing past
 * the end of the buffer.  MPICH 4.0 leaves several of these unchecked: those checks are vmpi-only. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int buf[64] = {0};

    MPI_Datatype t, freed;
    MPI_Type_vector(2, 1, 2, MPI_INT, &t); /* not committed */
    MT_CHECK_CLASS(errs, MPI_Send(buf, 1, t, rank, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
    int pos = 0;
    MT_CHECK_CLASS(errs, MPI_Pack(buf, 1, t, buf + 32, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Request req;
    MT_CHECK_CLASS(errs, MPI_Irecv(buf, 1, t, rank, 0, MPI_COMM_SELF, &req), MPI_ERR_TYPE);
    /* an uncommitted type is fine for queries and constructors */
    int sz = 0;
    MT_CHECK_RC(errs, MPI_Type_size(t, &sz));
    MT_CHECK_INT(errs, "size of an uncommitted vector", 8, sz);
    MPI_Datatype t2;
    MT_CHECK_RC(errs, MPI_Type_contiguous(2, t, &t2));
    MPI_Type_free(&t2);

    MPI_Type_contiguous(3, MPI_INT, &freed);
    MPI_Type_commit(&freed);
    MPI_Datatype stale = freed;
    MT_CHECK_RC(errs, MPI_Type_free(&freed));
    MT_CHECK(errs, freed == MPI_DATATYPE_NULL, "Type_free did not set the handle to MPI_DATATYPE_NULL");
    if (!MT_MPICH_BUGS) { /* MPICH does not detect freed handles (it crashes) */
        MT_CHECK_CLASS(errs, MPI_Send(buf, 1, stale, rank, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
        MT_CHECK_CLASS(errs, MPI_Type_size(stale, &sz), MPI_ERR_TYPE);
        MT_CHECK_CLASS(errs, MPI_Type_free(&stale), MPI_ERR_TYPE);
        /* a new type may reuse the slot: the stale handle still names nothing */
        MPI_Datatype again;
        MPI_Type_contiguous(3, MPI_INT, &again);
        MT_CHECK_CLASS(errs, MPI_Type_size(stale, &sz), MPI_ERR_TYPE);
        MPI_Type_free(&again);
    }
    MT_CHECK_CLASS(errs, MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_SELF), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t2), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Type_commit(&(MPI_Datatype){MPI_DATATYPE_NULL}), MPI_ERR_TYPE);
    MPI_Datatype predefined = MPI_INT;
    MT_CHECK_CLASS(errs, MPI_Type_free(&predefined), MPI_ERR_TYPE);
    int ints[4];
    MPI_Aint aints[4];
    MPI_Datatype types[4];
    MT_CHECK_CLASS(errs, MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, aints, types), MPI_ERR_TYPE);

    /* counts and arguments */
    MT_CHECK_CLASS(errs, MPI_Type_contiguous(-1, MPI_INT, &t2), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Type_vector(-2, 1, 1, MPI_INT, &t2), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Type_vector(2, -1, 1, MPI_INT, &t2), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG);
    int bl[2] = {1, -3}, dp[2] = {0, 4};
    MT_CHECK_CLASS(errs, MPI_Type_indexed(2, bl, dp, MPI_INT, &t2), MPI_ERR_COUNT);
    if (!MT_MPICH_BUGS) { /* MPICH: MPI_ERR_OTHER for short arrays, and no check of subarray bounds */
        MT_CHECK_CLASS(errs, MPI_Type_get_contents(t, 1, 0, 1, ints, aints, types), MPI_ERR_ARG);
        int s3[2] = {4, 4}, sub[2] = {2, 5}, st[2] = {0, 0};
        MT_CHECK_CLASS(errs, MPI_Type_create_subarray(2, s3, sub, st, MPI_ORDER_C, MPI_INT, &t2), MPI_ERR_ARG);
        int sub2[2] = {2, 2}, st2[2] = {3, 0};
        MT_CHECK_CLASS(errs, MPI_Type_create_subarray(2, s3, sub2, st2, MPI_ORDER_C, MPI_INT, &t2), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Type_create_subarray(2, s3, sub2, st, 12345, MPI_INT, &t2), MPI_ERR_ARG);
    }
    int gs[1] = {10}, di[1] = {MPI_DISTRIBUTE_BLOCK}, da[1] = {2}, ps[1] = {3};
    int da2[1] = {MPI_DISTRIBUTE_DFLT_DARG};
    MT_CHECK_CLASS(errs, MPI_Type_create_darray(3, 3, 1, gs, di, da2, ps, MPI_ORDER_C, MPI_INT, &t2), MPI_ERR_RANK);
    if (!MT_MPICH_BUGS) { /* MPICH checks neither */
        /* blocks of 2 over 3 processes cannot cover 10 elements */
        MT_CHECK_CLASS(errs, MPI_Type_create_darray(3, 0, 1, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t2),
                       MPI_ERR_ARG);
        /* 4 processes on a grid of 3 */
        MT_CHECK_CLASS(errs, MPI_Type_create_darray(4, 0, 1, gs, di, da2, ps, MPI_ORDER_C, MPI_INT, &t2),
                       MPI_ERR_ARG);
    }

    /* pack */
    MPI_Type_commit(&t);
    pos = 60;
    int rc = MPI_Pack(buf, 1, t, buf + 32, 64, &pos, MPI_COMM_WORLD);
    if (!MT_MPICH_BUGS) /* MPICH 4.0 packs past the end of the buffer without an error */
        MT_CHECK_CLASS(errs, rc, MPI_ERR_TRUNCATE);
    pos = 0;
    MT_CHECK_CLASS(errs, MPI_Pack(buf, -1, MPI_INT, buf + 32, 64, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Aint apos = 0, asz;
    if (!MT_MPICH_BUGS) /* MPICH accepts any representation name */
        MT_CHECK_CLASS(errs, MPI_Pack_external("native", buf, 1, MPI_INT, buf + 32, 64, &apos), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pack_external_size("external32", 1, MPI_DATATYPE_NULL, &asz), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    return mt_finish(errs);
}
