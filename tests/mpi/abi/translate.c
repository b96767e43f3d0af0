/* SPDX-License-Identifier: BSD-3-Clause */
/* A program of the MPI-5.0 standard ABI (compiled against its mpi.h, linked with libmpi_abi): every kind of
 * value the library translates between the ABI and vmpi comes back as the ABI's.  Predefined handles are the
 * ABI's numbers; wildcards and sentinels in arguments and statuses (MPI_ANY_SOURCE, MPI_ANY_TAG,
 * MPI_PROC_NULL, MPI_ROOT); statuses alone and in arrays longer than the library's on-stack buffers;
 * arrays of requests and datatypes; MPI_IN_PLACE; enumerations in and out (thread levels, comparisons,
 * combiners, split types, window flavors and lock types, the order in a datatype's contents); predefined
 * attributes; error classes; the handles' integer forms; a function vmpi lacks.  Ranks migrate in between
 * (AMPI_Migrate through the ABI: its MPI_INFO_NULL is the ABI's). */
#include <mpi.h>
#include "mtest.h"

int AMPI_Migrate(MPI_Info hints); /* vmpi's extension, which libmpi_abi translates too */

#define N_REQ 40 /* more requests than the library converts on its stack */

static int check_constants(void)
{
    int errs = 0, major = -1, minor = -1;
    MT_CHECK_INT(errs, "MPI_COMM_WORLD", 0x101, (intptr_t)MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "MPI_INT", 0x209, (intptr_t)MPI_INT);
    MT_CHECK_RC(errs, MPI_Abi_get_version(&major, &minor));
    MT_CHECK_INT(errs, "ABI major", 1, major);
    MT_CHECK_INT(errs, "ABI minor", 0, minor);
    MPI_Info info;
    MT_CHECK_RC(errs, MPI_Abi_get_info(&info));
    char value[16];
    int flag = 0;
    MT_CHECK_RC(errs, MPI_Info_get_string(info, "mpi_aint_size", &(int){sizeof value}, value, &flag));
    MT_CHECK(errs, flag && atoi(value) == (int)sizeof(MPI_Aint), "mpi_aint_size: %s (flag %d)", value, flag);
    MT_CHECK_RC(errs, MPI_Info_free(&info));
    MT_CHECK(errs, info == MPI_INFO_NULL, "MPI_Info_free left %p", (void *)info);
    int provided = -1;
    MT_CHECK_RC(errs, MPI_Query_thread(&provided));
    MT_CHECK(errs, provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
                       provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "MPI_Query_thread gave %d, not an ABI thread level", provided);
    /* the integer forms of handles */
    MT_CHECK(errs, MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_SELF)) == MPI_COMM_SELF, "Comm toint/fromint");
    MT_CHECK(errs, MPI_Type_fromint(MPI_Type_toint(MPI_DOUBLE)) == MPI_DOUBLE, "Type toint/fromint");
    MT_CHECK(errs, MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD, "Comm c2f/f2c");
    MPI_Status st = {3, 4, 5, {6, 7, 8, 9, 10}}, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    MT_CHECK_RC(errs, MPI_Status_c2f(&st, f));
    MT_CHECK_INT(errs, "Fortran status's tag", 4, f[MPI_F_TAG]);
    MT_CHECK_RC(errs, MPI_Status_f2c(f, &back));
    MT_CHECK(errs, memcmp(&st, &back, sizeof st) == 0, "status c2f/f2c");
    return errs;
}

static int check_pt2pt(int rank, int size)
{
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    int x = rank, y = -1;
    /* wildcards in, the sender and tag out */
    MT_CHECK_RC(errs, MPI_Sendrecv(&x, 1, MPI_INT, right, 5 + rank, &y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                   MPI_COMM_WORLD, &st));
    MT_CHECK_INT(errs, "received", left, y);
    MT_CHECK_INT(errs, "status source", left, st.MPI_SOURCE);
    MT_CHECK_INT(errs, "status tag", 5 + left, st.MPI_TAG);
    int count = -1;
    MT_CHECK_RC(errs, MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK_INT(errs, "MPI_Get_count", 1, count);
    /* MPI_PROC_NULL: the status says so with the ABI's values */
    MT_CHECK_RC(errs, MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    MT_CHECK_INT(errs, "MPI_PROC_NULL's source", MPI_PROC_NULL, st.MPI_SOURCE);
    MT_CHECK_INT(errs, "MPI_PROC_NULL's tag", MPI_ANY_TAG, st.MPI_TAG);
    /* arrays of requests and statuses longer than the library's stack buffers */
    int *out = mt_malloc(sizeof(int) * N_REQ), *in = mt_malloc(sizeof(int) * N_REQ);
    MPI_Request *req = mt_malloc(sizeof(MPI_Request) * 2 * N_REQ);
    MPI_Status *sts = mt_malloc(sizeof(MPI_Status) * 2 * N_REQ);
    for (int i = 0; i < N_REQ; i++) {
        out[i] = rank * 1000 + i;
        in[i] = -1;
        MT_CHECK_RC(errs, MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &req[i]));
    }
    for (int i = 0; i < N_REQ; i++)
        MT_CHECK_RC(errs, MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &req[N_REQ + i]));
    MT_CHECK_RC(errs, MPI_Waitall(2 * N_REQ, req, sts));
    for (int i = 0; i < N_REQ; i++) {
        MT_CHECK_INT(errs, "Waitall's data", left * 1000 + i, in[i]);
        MT_CHECK_INT(errs, "Waitall's status source", left, sts[i].MPI_SOURCE);
        MT_CHECK_INT(errs, "Waitall's status tag", i, sts[i].MPI_TAG);
        MT_CHECK(errs, req[i] == MPI_REQUEST_NULL, "request %d not MPI_REQUEST_NULL after MPI_Waitall: %p", i,
                 (void *)req[i]);
    }
    /* MPI_Waitany over null requests: MPI_UNDEFINED */
    int index = 0;
    MT_CHECK_RC(errs, MPI_Waitany(N_REQ, req, &index, &st));
    MT_CHECK_INT(errs, "MPI_Waitany of null requests", MPI_UNDEFINED, index);
    free(out);
    free(in);
    free(req);
    free(sts);
    return errs;
}

static int check_coll(int rank, int size)
{
    int errs = 0;
    int v = rank + 1;
    MT_CHECK_RC(errs, MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK_INT(errs, "MPI_Allreduce in place", size * (size + 1) / 2, v);
    double d = rank, mx = -1;
    MT_CHECK_RC(errs, MPI_Reduce(&d, &mx, 1, MPI_DOUBLE, MPI_MAX, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1)
        MT_CHECK(errs, mx == size - 1, "MPI_Reduce MPI_MAX: %g", mx);
    /* an alltoallw: its arrays of datatypes are as long as the communicator */
    int *sc = mt_malloc(sizeof(int) * 4 * size), *sd = sc + size, *rc = sd + size, *rd = rc + size;
    MPI_Datatype *types = mt_malloc(sizeof(MPI_Datatype) * size);
    int *sb = mt_malloc(sizeof(int) * size), *rb = mt_malloc(sizeof(int) * size);
    for (int i = 0; i < size; i++) {
        sc[i] = rc[i] = 1;
        sd[i] = rd[i] = i * (int)sizeof(int);
        types[i] = MPI_INT;
        sb[i] = rank * size + i;
        rb[i] = -1;
    }
    MT_CHECK_RC(errs, MPI_Alltoallw(sb, sc, sd, types, rb, rc, rd, types, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++)
        MT_CHECK_INT(errs, "MPI_Alltoallw", i * size + rank, rb[i]);
    free(sc);
    free(types);
    free(sb);
    free(rb);
    /* a neighbourhood alltoallw on a periodic ring: its arrays of datatypes are as long as its 2 neighbours,
     * whatever the communicator's size (1 rank: degree 2 > size) */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1}, ncnt[2] = {1, 1};
    MPI_Aint ndsp[2] = {0, sizeof(int)};
    MPI_Datatype ntypes[2] = {MPI_INT, MPI_INT};
    int nsb[2] = {rank * 10, rank * 10 + 1}, nrb[2] = {-1, -1};
    MT_CHECK_RC(errs, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    MT_CHECK_RC(errs, MPI_Neighbor_alltoallw(nsb, ncnt, ndsp, ntypes, nrb, ncnt, ndsp, ntypes, ring));
    if (size >= 3) { /* (with 1 or 2 ranks both neighbours are one rank) */
        MT_CHECK_INT(errs, "from the left neighbour", ((rank + size - 1) % size) * 10 + 1, nrb[0]);
        MT_CHECK_INT(errs, "from the right neighbour", ((rank + 1) % size) * 10, nrb[1]);
    }
    MPI_Comm_free(&ring);
    return errs;
}

static int check_comm(int rank, int size)
{
    int errs = 0, result = -1;
    MPI_Comm dup, half, shared;
    MT_CHECK_RC(errs, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_CHECK_RC(errs, MPI_Comm_compare(MPI_COMM_WORLD, dup, &result));
    MT_CHECK_INT(errs, "MPI_Comm_compare of a dup", MPI_CONGRUENT, result);
    MT_CHECK_RC(errs, MPI_Comm_compare(dup, dup, &result));
    MT_CHECK_INT(errs, "MPI_Comm_compare of itself", MPI_IDENT, result);
    MT_CHECK_RC(errs, MPI_Comm_split(dup, rank % 2, -rank, &half));
    int hr = -1, hs = -1;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    int last = (size - 1) % 2 == rank % 2 ? size - 1 : size - 2; /* the highest rank of the same parity */
    MT_CHECK_INT(errs, "split rank (keys reversed)", (last - rank) / 2, hr);
    MT_CHECK_INT(errs, "split size", (size + 1 - rank % 2) / 2, hs);
    MT_CHECK_RC(errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    MT_CHECK(errs, shared != MPI_COMM_NULL, "MPI_COMM_TYPE_SHARED gave MPI_COMM_NULL");
    MPI_Comm none;
    MT_CHECK_RC(errs, MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none));
    MT_CHECK(errs, none == MPI_COMM_NULL, "color MPI_UNDEFINED gave %p", (void *)none);
    /* a group translation with MPI_PROC_NULL */
    MPI_Group wg, hg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(half, &hg);
    int in[2] = {rank, MPI_PROC_NULL}, out[2] = {-7, -7};
    MT_CHECK_RC(errs, MPI_Group_translate_ranks(wg, 2, in, hg, out));
    MT_CHECK_INT(errs, "translated own rank", hr, out[0]);
    MT_CHECK_INT(errs, "translated MPI_PROC_NULL", MPI_PROC_NULL, out[1]);
    MT_CHECK_RC(errs, MPI_Group_compare(wg, wg, &result));
    MT_CHECK_INT(errs, "MPI_Group_compare", MPI_IDENT, result);
    MPI_Group_free(&wg);
    MPI_Group_free(&hg);
    int topo = 0;
    MT_CHECK_RC(errs, MPI_Topo_test(dup, &topo));
    MT_CHECK_INT(errs, "MPI_Topo_test", MPI_UNDEFINED, topo);
    MPI_Comm cart;
    int dims[1] = {size}, periods[1] = {1};
    MT_CHECK_RC(errs, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    MT_CHECK_RC(errs, MPI_Topo_test(cart, &topo));
    MT_CHECK_INT(errs, "MPI_Topo_test of a cart", MPI_CART, topo);
    MPI_Comm_free(&cart);
    /* predefined attributes */
    int *tag_ub, flag = 0;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    MT_CHECK(errs, flag && *tag_ub >= 32767, "MPI_TAG_UB: flag %d", flag);
    int *host;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &host, &flag));
    MT_CHECK(errs, flag && (*host == MPI_PROC_NULL || (*host >= 0 && *host < size)), "MPI_HOST: %d", *host);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Comm_free(&shared);
    MT_CHECK(errs, dup == MPI_COMM_NULL, "MPI_Comm_free left %p", (void *)dup);
    return errs;
}

static int check_datatypes(void)
{
    int errs = 0;
    int blocks[2] = {1, 2};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, sub;
    MT_CHECK_RC(errs, MPI_Type_create_struct(2, blocks, disp, types, &st));
    int ni, na, nd, combiner = -1;
    MT_CHECK_RC(errs, MPI_Type_get_envelope(st, &ni, &na, &nd, &combiner));
    MT_CHECK_INT(errs, "combiner", MPI_COMBINER_STRUCT, combiner);
    int ints[3];
    MPI_Aint addrs[2];
    MPI_Datatype dts[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    MT_CHECK_RC(errs, MPI_Type_get_contents(st, 3, 2, 2, ints, addrs, dts));
    MT_CHECK(errs, dts[0] == MPI_INT && dts[1] == MPI_DOUBLE, "contents' types %p %p", (void *)dts[0],
             (void *)dts[1]);
    int sizes[2] = {4, 6}, subs[2] = {2, 3}, starts[2] = {1, 2};
    MT_CHECK_RC(errs, MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &sub));
    int sints[8];
    MPI_Datatype sdt;
    MT_CHECK_RC(errs, MPI_Type_get_contents(sub, 8, 0, 1, sints, NULL, &sdt));
    MT_CHECK_INT(errs, "subarray's order", MPI_ORDER_FORTRAN, sints[7]);
    MT_CHECK(errs, sdt == MPI_INT, "subarray's type %p", (void *)sdt);
    MPI_Type_free(&st);
    MPI_Type_free(&sub);
    return errs;
}

static int check_rma(int rank, int size)
{
    int errs = 0, *base = NULL, flag = 0, *flavor, *model;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    MT_CHECK(errs, flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "MPI_WIN_CREATE_FLAVOR: %d", *flavor);
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    MT_CHECK(errs, flag && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE), "MPI_WIN_MODEL: %d", *model);
    *base = -1;
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    MT_CHECK_RC(errs, MPI_Put(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win)); /* a target of none */
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, (rank + 1) % size, MPI_MODE_NOCHECK, win));
    MT_CHECK_RC(errs, MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_unlock((rank + 1) % size, win));
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MT_CHECK_INT(errs, "put through the window", (rank + size - 1) % size, *base);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return errs;
}

static int check_errors(int size)
{
    int errs = 0, cls = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 0;
    int rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    rc = MPI_Send(&x, 1, MPI_INT, 0, 0, (MPI_Comm)(intptr_t)0x3f0); /* in the reserved range, no handle */
    MT_CHECK_CLASS(errs, rc, MPI_ERR_COMM);
    rc = MPI_Send(&x, 1, (MPI_Datatype)MPI_COMM_WORLD, 0, 0, MPI_COMM_WORLD); /* a handle of another kind */
    MT_CHECK_CLASS(errs, rc, MPI_ERR_TYPE);
    /* values that are wildcards in vmpi's numbering but none in the ABI's */
    MT_CHECK_CLASS(errs, MPI_Recv(&x, 1, MPI_INT, -2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Send(&x, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
    MPI_File fh;
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_UNSUPPORTED_OPERATION);
    MT_CHECK_RC(errs, MPI_Error_class(MPI_ERR_TRUNCATE, &cls));
    MT_CHECK_INT(errs, "MPI_Error_class", MPI_ERR_TRUNCATE, cls);
    int newclass = -1, newcode = -1;
    MT_CHECK_RC(errs, MPI_Add_error_class(&newclass));
    MT_CHECK_RC(errs, MPI_Add_error_code(newclass, &newcode));
    MT_CHECK_RC(errs, MPI_Error_class(newcode, &cls));
    MT_CHECK_INT(errs, "class of an added code", newclass, cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler eh;
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    MT_CHECK(errs, eh == MPI_ERRORS_ARE_FATAL, "MPI_Comm_get_errhandler: %p", (void *)eh);
    return errs;
}

static int check_bsend(void)
{
    int errs = 0, size = 0;
    void *addr = NULL;
    MT_CHECK_RC(errs, MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    MT_CHECK_RC(errs, MPI_Buffer_detach(&addr, &size));
    MT_CHECK(errs, addr == MPI_BUFFER_AUTOMATIC, "MPI_Buffer_detach gave %p, not MPI_BUFFER_AUTOMATIC", addr);
    return errs;
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size, errs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(errs, provided >= MPI_THREAD_FUNNELED, "MPI_Init_thread provided %d", provided);
    errs += check_constants();
    errs += check_pt2pt(rank, size);
    AMPI_Migrate(MPI_INFO_NULL);
    errs += check_coll(rank, size);
    errs += check_comm(rank, size);
    AMPI_Migrate(MPI_INFO_NULL);
    errs += check_datatypes();
    errs += check_rma(rank, size);
    errs += check_errors(size);
    errs += check_bsend();
    AMPI_Migrate(MPI_INFO_NULL);
    errs += check_pt2pt(rank, size);
    return mt_finish(errs);
}
