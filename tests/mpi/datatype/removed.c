/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-1 functions MPI-3.0 removed, which vmpi still provides as MPICH and Open MPI do, against their
 * MPI-2 replacements: MPI_Address (MPI_Get_address); MPI_Type_extent, MPI_Type_lb and MPI_Type_ub on
 * predefined types, on a struct with MPI_LB and MPI_UB markers and on a resized type; MPI_Type_hvector,
 * MPI_Type_hindexed and MPI_Type_struct (the same size, extent, envelope and data moved between ranks as
 * the MPI_Type_create_* forms); MPI_Errhandler_create, MPI_Errhandler_set and MPI_Errhandler_get (a handler
 * set on a duplicate of MPI_COMM_WORLD is called for an error there, and records it in the communicator's
 * name: handlers have no user argument).  Ranks pair up (0,1), (2,3)...; an odd last rank talks to itself. */
#include "mtest.h"

static void handler(MPI_Comm *comm, int *code, ...)
{
    char name[MPI_MAX_OBJECT_NAME];
    int cls;
    MPI_Error_class(*code, &cls);
    snprintf(name, sizeof name, "handled class %d", cls);
    MPI_Comm_set_name(*comm, name);
}

/* Same size, bounds and combiner as the MPI-2 form. */
static int same(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    int errs = 0, sa, sb, ni, na, nd, ca, cb;
    MPI_Aint lba, exa, lbb, exb, x;
    MPI_Type_size(a, &sa);
    MPI_Type_size(b, &sb);
    MPI_Type_get_extent(a, &lba, &exa);
    MPI_Type_get_extent(b, &lbb, &exb);
    MT_CHECK(errs, sa == sb && lba == lbb && exa == exb, "%s: size %d lb %ld extent %ld, expected %d %ld %ld", what,
             sa, (long)lba, (long)exa, sb, (long)lbb, (long)exb);
    MPI_Type_extent(a, &x);
    MT_CHECK(errs, x == exb, "%s: MPI_Type_extent %ld, expected %ld", what, (long)x, (long)exb);
    MPI_Type_lb(a, &x);
    MT_CHECK(errs, x == lbb, "%s: MPI_Type_lb %ld, expected %ld", what, (long)x, (long)lbb);
    MPI_Type_ub(a, &x);
    MT_CHECK(errs, x == lbb + exb, "%s: MPI_Type_ub %ld, expected %ld", what, (long)x, (long)(lbb + exb));
    MPI_Type_get_envelope(a, &ni, &na, &nd, &ca);
    MPI_Type_get_envelope(b, &ni, &na, &nd, &cb);
    MT_CHECK_INT(errs, what, cb, ca);
    return errs;
}

/* Sends one element of `t` to the peer and checks the ints it covers in `buf` (a 64-int array). */
static int exchange(MPI_Datatype t, int peer, int rank, const int *covered, int n, const char *what)
{
    int errs = 0, *sbuf = malloc(64 * sizeof(int)), *rbuf = malloc(64 * sizeof(int));
    for (int i = 0; i < 64; i++) {
        sbuf[i] = rank * 1000 + i;
        rbuf[i] = -1;
    }
    MPI_Sendrecv(sbuf, 1, t, peer, 0, rbuf, 1, t, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0, k = 0; i < 64; i++) {
        int in = k < n && covered[k] == i;
        k += in;
        int want = in ? peer * 1000 + i : -1;
        if (rbuf[i] != want)
            MT_ERR(errs, "%s: int %d is %d, expected %d", what, i, rbuf[i], want);
    }
    free(sbuf);
    free(rbuf);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;

    /* MPI_Address */
    int arr[4];
    MPI_Aint a0, a3, g3;
    MPI_Address(&arr[0], &a0);
    MPI_Address(&arr[3], &a3);
    MPI_Get_address(&arr[3], &g3);
    MT_CHECK(errs, a3 == g3 && a3 - a0 == 3 * (MPI_Aint)sizeof(int), "MPI_Address differs from MPI_Get_address");

    /* bounds of predefined types and of marker structs */
    MPI_Aint x;
    MPI_Type_extent(MPI_DOUBLE, &x);
    MT_CHECK_INT(errs, "MPI_Type_extent(MPI_DOUBLE)", sizeof(double), x);
    MPI_Type_lb(MPI_INT, &x);
    MT_CHECK_INT(errs, "MPI_Type_lb(MPI_INT)", 0, x);
    MPI_Type_ub(MPI_INT, &x);
    MT_CHECK_INT(errs, "MPI_Type_ub(MPI_INT)", sizeof(int), x);
    int bl3[3] = {1, 2, 1};
    MPI_Aint d3[3] = {-8, 4, 40};
    MPI_Datatype ty3[3] = {MPI_LB, MPI_INT, MPI_UB}, s_old, s_new, r;
    MPI_Type_struct(3, bl3, d3, ty3, &s_old);
    MPI_Type_create_struct(3, bl3, d3, ty3, &s_new);
    errs += same(s_old, s_new, "struct with MPI_LB at -8 and MPI_UB at 40");
    MPI_Type_lb(s_old, &x);
    MT_CHECK_INT(errs, "MPI_Type_lb of the marker struct", -8, x);
    MPI_Type_ub(s_old, &x);
    MT_CHECK_INT(errs, "MPI_Type_ub of the marker struct", 40, x);
    MPI_Type_create_resized(MPI_INT, 4, 24, &r);
    errs += same(r, r, "MPI_INT resized to lb 4, extent 24");
    MPI_Type_ub(r, &x);
    MT_CHECK_INT(errs, "MPI_Type_ub of the resized type", 28, x);
    MPI_Type_free(&s_old);
    MPI_Type_free(&s_new);
    MPI_Type_free(&r);

    /* constructors: the same types as the MPI-2 forms, and the same data moved */
    MPI_Datatype o, n;
    MPI_Type_hvector(3, 2, 5 * sizeof(int), MPI_INT, &o);
    MPI_Type_create_hvector(3, 2, 5 * sizeof(int), MPI_INT, &n);
    errs += same(o, n, "MPI_Type_hvector");
    MPI_Type_commit(&o);
    errs += exchange(o, peer, rank, (int[]){0, 1, 5, 6, 10, 11}, 6, "MPI_Type_hvector");
    MPI_Type_free(&o);
    MPI_Type_free(&n);
    int hbl[3] = {2, 1, 3};
    MPI_Aint hd[3] = {40 * sizeof(int), 4 * sizeof(int), 20 * sizeof(int)};
    MPI_Type_hindexed(3, hbl, hd, MPI_INT, &o);
    MPI_Type_create_hindexed(3, hbl, hd, MPI_INT, &n);
    errs += same(o, n, "MPI_Type_hindexed");
    MPI_Type_commit(&o);
    errs += exchange(o, peer, rank, (int[]){4, 20, 21, 22, 40, 41}, 6, "MPI_Type_hindexed");
    MPI_Type_free(&o);
    MPI_Type_free(&n);
    int sbl[2] = {2, 1};
    MPI_Aint sd[2] = {8 * sizeof(int), 30 * sizeof(int)};
    MPI_Datatype sty[2] = {MPI_INT, MPI_INT};
    MPI_Type_struct(2, sbl, sd, sty, &o);
    MPI_Type_create_struct(2, sbl, sd, sty, &n);
    errs += same(o, n, "MPI_Type_struct");
    MPI_Type_commit(&o);
    errs += exchange(o, peer, rank, (int[]){8, 9, 30}, 3, "MPI_Type_struct");
    MPI_Type_free(&o);
    MPI_Type_free(&n);

    /* error handlers */
    MPI_Comm dup;
    MPI_Errhandler eh, got = MPI_ERRHANDLER_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MT_CHECK_RC(errs, MPI_Errhandler_create(handler, &eh));
    MT_CHECK_RC(errs, MPI_Errhandler_set(dup, eh));
    MT_CHECK_RC(errs, MPI_Errhandler_get(dup, &got));
    MT_CHECK(errs, got == eh, "MPI_Errhandler_get did not return the handler set");
    MPI_Errhandler_free(&got);
    MPI_Errhandler_get(MPI_COMM_WORLD, &got);
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD's handler is not MPI_ERRORS_ARE_FATAL");
    int rc = MPI_Send(arr, -1, MPI_INT, peer, 0, dup);
    char name[MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_get_name(dup, name, &len);
    snprintf(want, sizeof want, "handled class %d", MPI_ERR_COUNT);
    MT_CHECK(errs, strcmp(name, want) == 0, "the handler set by MPI_Errhandler_set: name '%s', expected '%s'", name,
             want);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_COUNT);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup);
    return mt_finish(errs);
}
