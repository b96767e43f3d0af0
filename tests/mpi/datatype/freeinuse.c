/* SPDX-License-Identifier: BSD-3-Clause */
/* A datatype freed while operations use it stays usable by them: nonblocking sends and receives (eager and
 * rendezvous sizes) and persistent requests whose types are freed right after posting; a struct whose
 * component was freed before the struct was committed.  Derived types in a collective (Bcast of a vector).
 * Every rank creates and frees many types at once (ranks on different PEs share the handle table): each
 * handle keeps its own type. */
#include "mtest.h"

#define N 6000 /* ints per vector: 24 KB of data, above the eager limit */

static MPI_Datatype vec_of(int n, int stride)
{
    MPI_Datatype t;
    MPI_Type_vector(n, 1, stride, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Sends every other int of `src` (n of them) to the partner, receives into every third int of `dst`, freeing
 * both types right after posting. */
static int exchange(int n, int partner, int rank, int tag)
{
    int errs = 0;
    int *src = mt_malloc(sizeof(int) * 2 * (size_t)n), *dst = mt_malloc(sizeof(int) * 3 * (size_t)n);
    for (int i = 0; i < 2 * n; i++)
        src[i] = rank * 1000000 + i;
    for (int i = 0; i < 3 * n; i++)
        dst[i] = -1;
    MPI_Datatype st = vec_of(n, 2), rt = vec_of(n, 3);
    MPI_Request r[2];
    MPI_Irecv(dst, 1, rt, partner, tag, MPI_COMM_WORLD, &r[0]);
    MPI_Type_free(&rt);
    MPI_Isend(src, 1, st, partner, tag, MPI_COMM_WORLD, &r[1]);
    MPI_Type_free(&st);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 3 * n; i++) {
        int want = i % 3 == 0 && i / 3 < n ? partner * 1000000 + 2 * (i / 3) : -1;
        if (dst[i] != want) {
            MT_ERR(errs, "%d ints, freed types: dst[%d] is %d, expected %d", n, i, dst[i], want);
            break;
        }
    }
    free(src), free(dst);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;

    errs += exchange(10, partner, rank, 1);
    errs += exchange(N, partner, rank, 2);

    /* persistent requests outlive their types */
    {
        int *src = mt_malloc(sizeof(int) * 2 * N), *dst = mt_malloc(sizeof(int) * 2 * N);
        MPI_Datatype st = vec_of(N, 2), rt = vec_of(N, 2);
        MPI_Request r[2];
        MPI_Recv_init(dst, 1, rt, partner, 3, MPI_COMM_WORLD, &r[0]);
        MPI_Send_init(src, 1, st, partner, 3, MPI_COMM_WORLD, &r[1]);
        MPI_Type_free(&st);
        MPI_Type_free(&rt);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 2 * N; i++)
                src[i] = rank * 7 + round * 100000 + i, dst[i] = -1;
            MPI_Startall(2, r);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
            for (int i = 0; i < 2 * N; i++) {
                int want = i % 2 == 0 ? partner * 7 + round * 100000 + i : -1;
                if (dst[i] != want) {
                    MT_ERR(errs, "persistent round %d: dst[%d] is %d, expected %d", round, i, dst[i], want);
                    break;
                }
            }
        }
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
        free(src), free(dst);
    }

    /* a struct whose component handle is gone */
    {
        MPI_Datatype v = vec_of(3, 2), s;
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 4 * (MPI_Aint)sizeof(int) * 2};
        MPI_Datatype ty[2] = {v, MPI_INT};
        MPI_Type_create_struct(2, bl, dp, ty, &s);
        MPI_Type_free(&v);
        MPI_Type_commit(&s);
        int a[16], b[16];
        for (int i = 0; i < 16; i++)
            a[i] = rank * 100 + i, b[i] = -1;
        MPI_Sendrecv(a, 1, s, partner, 4, b, 1, s, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 16; i++) {
            int want = (i == 0 || i == 2 || i == 4 || i == 8) ? partner * 100 + i : -1;
            MT_CHECK(errs, b[i] == want, "struct with a freed component: b[%d] is %d, expected %d", i, b[i], want);
        }
        MPI_Type_free(&s);
    }

    /* a derived type in a collective */
    {
        int *a = mt_malloc(sizeof(int) * 40);
        for (int i = 0; i < 40; i++)
            a[i] = rank == 0 ? 5000 + i : -1;
        MPI_Datatype v = vec_of(10, 4);
        MPI_Bcast(a, 1, v, 0, MPI_COMM_WORLD);
        for (int i = 0; i < 40; i++) {
            int want = rank == 0 || i % 4 == 0 ? 5000 + i : -1;
            if (a[i] != want) {
                MT_ERR(errs, "Bcast of a vector: a[%d] is %d, expected %d", i, a[i], want);
                break;
            }
        }
        MPI_Type_free(&v);
        free(a);
    }

    /* many ranks create and free types at once: each handle keeps its own type */
    {
        MPI_Datatype t[50];
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < 50; i++)
                MPI_Type_contiguous(rank * 50 + i + 1, MPI_CHAR, &t[i]);
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < 50; i++) {
                int sz = -1;
                MPI_Type_size(t[i], &sz);
                MT_CHECK(errs, sz == rank * 50 + i + 1, "type %d of round %d has size %d, expected %d", i, round,
                         sz, rank * 50 + i + 1);
                for (int j = 0; j < i; j++)
                    MT_CHECK(errs, t[j] != t[i], "two live types share handle 0x%x", (unsigned)t[i]);
            }
            for (int i = 0; i < 50; i += 2)
                MPI_Type_free(&t[i]);
            for (int i = 1; i < 50; i += 2)
                MPI_Type_free(&t[i]);
        }
    }
    return mt_finish(errs);
}
