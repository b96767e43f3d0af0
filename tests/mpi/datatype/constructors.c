/* SPDX-License-Identifier: BSD-3-Clause */
/* Every constructor against a hand-written typemap (byte offset, length pieces of one instance, in typemap
 * order) and hand-computed size, lb, extent, true lb and true extent.  Each type is sent to the partner rank
 * with count instances and received as bytes (the bytes must be the typemap's, in order), then bytes are
 * received into the type (exactly the typemap's bytes change; every gap keeps its sentinel).  Nested types
 * check marker propagation (MPI_LB/MPI_UB of a component, resized components in arrays). */
#include "mtest.h"

#define MAXP 24
#define BUFSZ 1024
#define ORIGIN 400 /* instances start here in the buffers, so negative displacements stay inside */

typedef struct piece {
    long off, len;
} piece;

typedef struct expect {
    const char *name;
    MPI_Datatype dt;
    int count;                /* instances sent */
    long size, lb, extent, true_lb, true_extent;
    int np;
    piece p[MAXP];
} expect;

/* The pieces of `src` at each of the `n` byte offsets `at`, in that order (a type made of copies of src). */
static void copies(expect *dst, const expect *src, const long *at, int n)
{
    dst->np = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < src->np; k++)
            dst->p[dst->np++] = (piece){at[i] + src->p[k].off, src->p[k].len};
}

/* The byte offsets of (count, type) in typemap order; returns how many. */
static long typemap(const expect *e, long *off)
{
    long n = 0;
    for (int i = 0; i < e->count; i++)
        for (int k = 0; k < e->np; k++)
            for (long j = 0; j < e->p[k].len; j++)
                off[n++] = ORIGIN + i * e->extent + e->p[k].off + j;
    return n;
}

static int check_type(const expect *e, int partner)
{
    int errs = 0;
    MPI_Aint lb, ext, tlb, text;
    MPI_Count size_x, lb_x, ext_x;
    int size;
    MPI_Type_size(e->dt, &size);
    MPI_Type_size_x(e->dt, &size_x);
    MPI_Type_get_extent(e->dt, &lb, &ext);
    MPI_Type_get_extent_x(e->dt, &lb_x, &ext_x);
    MPI_Type_get_true_extent(e->dt, &tlb, &text);
    MT_CHECK(errs, size == e->size && size_x == e->size, "%s: size %d / %lld, expected %ld", e->name, size,
             (long long)size_x, e->size);
    MT_CHECK(errs, lb == e->lb && ext == e->extent && lb_x == e->lb && ext_x == e->extent,
             "%s: lb %ld extent %ld, expected %ld %ld", e->name, (long)lb, (long)ext, e->lb, e->extent);
    MT_CHECK(errs, tlb == e->true_lb && text == e->true_extent, "%s: true lb %ld true extent %ld, expected %ld %ld",
             e->name, (long)tlb, (long)text, e->true_lb, e->true_extent);

    unsigned char *src = mt_malloc(BUFSZ), *dst = mt_malloc(BUFSZ), *bytes = mt_malloc(BUFSZ);
    long *off = mt_malloc(sizeof(long) * BUFSZ);
    long n = typemap(e, off);
    for (int i = 0; i < BUFSZ; i++)
        src[i] = (unsigned char)(i * 7 + 3);

    /* typed send -> bytes */
    memset(bytes, 0xEE, BUFSZ);
    MPI_Status st;
    MPI_Sendrecv(src + ORIGIN, e->count, e->dt, partner, 1, bytes, BUFSZ, MPI_BYTE, partner, 1, MPI_COMM_WORLD,
                 &st);
    int got;
    MPI_Get_count(&st, MPI_BYTE, &got);
    MT_CHECK_INT(errs, "bytes received from the typed send", n, got);
    for (long k = 0; k < n && k < got; k++)
        if (bytes[k] != src[off[k]]) {
            MT_ERR(errs, "%s: packed byte %ld is 0x%02x, expected byte at offset %ld (0x%02x)", e->name, k,
                   bytes[k], off[k] - ORIGIN, src[off[k]]);
            break;
        }

    /* bytes -> typed receive: exactly the typemap's bytes change, in order */
    for (long k = 0; k < n; k++)
        bytes[k] = (unsigned char)(k * 13 + 1);
    memset(dst, 0xEE, BUFSZ);
    MPI_Sendrecv(bytes, (int)n, MPI_BYTE, partner, 2, dst + ORIGIN, e->count, e->dt, partner, 2, MPI_COMM_WORLD,
                 &st);
    unsigned char *want = mt_malloc(BUFSZ);
    memset(want, 0xEE, BUFSZ);
    for (long k = 0; k < n; k++)
        want[off[k]] = (unsigned char)(k * 13 + 1);
    for (int i = 0; i < BUFSZ; i++)
        if (dst[i] != want[i]) {
            MT_ERR(errs, "%s: after the typed receive, offset %d is 0x%02x, expected 0x%02x (%s)", e->name,
                   i - ORIGIN, dst[i], want[i], want[i] == 0xEE ? "a gap" : "data");
            break;
        }
    /* typed -> typed with the same type: the same bytes land */
    memset(dst, 0xEE, BUFSZ);
    MPI_Sendrecv(src + ORIGIN, e->count, e->dt, partner, 3, dst + ORIGIN, e->count, e->dt, partner, 3,
                 MPI_COMM_WORLD, &st);
    for (long k = 0; k < n; k++)
        want[off[k]] = src[off[k]];
    for (int i = 0; i < BUFSZ; i++)
        if (dst[i] != want[i]) {
            MT_ERR(errs, "%s: typed -> typed, offset %d is 0x%02x, expected 0x%02x", e->name, i - ORIGIN, dst[i],
                   want[i]);
            break;
        }
    free(src), free(dst), free(bytes), free(off), free(want);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;

    MPI_Datatype t[32];
    int nt = 0;
    expect e[32];
    int ne = 0;

    /* contiguous(3, int) */
    MPI_Type_contiguous(3, MPI_INT, &t[nt]);
    e[ne++] = (expect){"contiguous", t[nt++], 2, 12, 0, 12, 0, 12, 1, {{0, 12}}};
    /* vector(3, 2, 4, int): 8 bytes every 16 */
    MPI_Type_vector(3, 2, 4, MPI_INT, &t[nt]);
    e[ne++] = (expect){"vector", t[nt++], 2, 24, 0, 40, 0, 40, 3, {{0, 8}, {16, 8}, {32, 8}}};
    /* vector with a negative stride: typemap order 0, -8, -16 */
    MPI_Type_vector(3, 1, -2, MPI_INT, &t[nt]);
    e[ne++] = (expect){"vector-negative", t[nt++], 2, 12, -16, 20, -16, 20, 3, {{0, 4}, {-8, 4}, {-16, 4}}};
    /* hvector(2, 2, 20 bytes, int) */
    MPI_Type_create_hvector(2, 2, 20, MPI_INT, &t[nt]);
    e[ne++] = (expect){"hvector", t[nt++], 3, 16, 0, 28, 0, 28, 2, {{0, 8}, {20, 8}}};
    /* indexed: blocks (2 at 5, 1 at 0, 3 at 10) ints, out of address order */
    {
        int bl[3] = {2, 1, 3}, dp[3] = {5, 0, 10};
        MPI_Type_indexed(3, bl, dp, MPI_INT, &t[nt]);
        e[ne++] = (expect){"indexed", t[nt++], 2, 24, 0, 52, 0, 52, 3, {{20, 8}, {0, 4}, {40, 12}}};
    }
    /* hindexed of shorts: 1 at byte 24, 2 at byte 2 */
    {
        int bl[2] = {1, 2};
        MPI_Aint dp[2] = {24, 2};
        MPI_Type_create_hindexed(2, bl, dp, MPI_SHORT, &t[nt]);
        e[ne++] = (expect){"hindexed", t[nt++], 2, 6, 2, 24, 2, 24, 2, {{24, 2}, {2, 4}}};
    }
    /* indexed_block(3, 2, {4, 0, 8}, int) */
    {
        int dp[3] = {4, 0, 8};
        MPI_Type_create_indexed_block(3, 2, dp, MPI_INT, &t[nt]);
        e[ne++] = (expect){"indexed_block", t[nt++], 2, 24, 0, 40, 0, 40, 3, {{16, 8}, {0, 8}, {32, 8}}};
    }
    /* hindexed_block(2, 3, {0, 30}, char) */
    {
        MPI_Aint dp[2] = {0, 30};
        MPI_Type_create_hindexed_block(2, 3, dp, MPI_CHAR, &t[nt]);
        e[ne++] = (expect){"hindexed_block", t[nt++], 3, 6, 0, 33, 0, 33, 2, {{0, 3}, {30, 3}}};
    }
    /* struct {int at 0; double[2] at 8; char[3] at 24}: 27 bytes of span, extent padded to 32 (double) */
    MPI_Datatype st_plain;
    {
        int bl[3] = {1, 2, 3};
        MPI_Aint dp[3] = {0, 8, 24};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Type_create_struct(3, bl, dp, ty, &t[nt]);
        st_plain = t[nt];
        e[ne++] = (expect){"struct", t[nt++], 3, 23, 0, 32, 0, 27, 3, {{0, 4}, {8, 16}, {24, 3}}};
    }
    /* struct with MPI_LB at -8 and MPI_UB at 24 around 2 ints at 0 */
    MPI_Datatype st_lbub;
    {
        int bl[3] = {1, 2, 1};
        MPI_Aint dp[3] = {-8, 0, 24};
        MPI_Datatype ty[3] = {MPI_LB, MPI_INT, MPI_UB};
        MPI_Type_create_struct(3, bl, dp, ty, &t[nt]);
        st_lbub = t[nt];
        e[ne++] = (expect){"struct-lb-ub", t[nt++], 3, 8, -8, 32, 0, 8, 1, {{0, 8}}};
    }
    /* resized vector (ints at 0 and 8) to lb -4, extent 20: instances every 20 bytes */
    MPI_Datatype vec2, rsz;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec2);
    MPI_Type_create_resized(vec2, -4, 20, &rsz);
    t[nt++] = rsz;
    e[ne++] = (expect){"resized", rsz, 3, 8, -4, 20, 0, 12, 2, {{0, 4}, {8, 4}}};
    /* dup of the struct: same typemap and bounds */
    MPI_Type_dup(st_plain, &t[nt]);
    e[ne++] = (expect){"dup", t[nt++], 2, 23, 0, 32, 0, 27, 3, {{0, 4}, {8, 16}, {24, 3}}};
    /* vector(2, 1, 2) of the resized type: its markers propagate (lb -4, ub 40 + 16) */
    MPI_Type_vector(2, 1, 2, rsz, &t[nt]);
    e[ne++] = (expect){"vector-of-resized", t[nt++], 2, 16, -4, 60, 0, 52, 4, {{0, 4}, {8, 4}, {40, 4}, {48, 4}}};
    /* contiguous(2) of the struct with markers: extent 64 from lb -8 */
    MPI_Type_contiguous(2, st_lbub, &t[nt]);
    e[ne++] = (expect){"contiguous-of-lbub", t[nt++], 2, 16, -8, 64, 0, 40, 2, {{0, 8}, {32, 8}}};
    /* struct of derived types: the padded struct at 0 and the vector at 40 (extent: no padding beyond 8) */
    {
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 40};
        MPI_Datatype ty[2] = {st_plain, vec2};
        MPI_Type_create_struct(2, bl, dp, ty, &t[nt]);
        e[ne++] = (expect){"struct-of-derived", t[nt++], 2, 31, 0, 56, 0, 52, 5,
                           {{0, 4}, {8, 16}, {24, 3}, {40, 4}, {48, 4}}};
    }
    /* copies of a many-block type (the engine keeps one copy of its blocks, repeated) */
    const expect sp = e[8]; /* "struct": {0,4} {8,16} {24,3}, extent 32 */
    MPI_Datatype c3;
    MPI_Type_contiguous(3, st_plain, &c3);
    t[nt++] = c3;
    e[ne] = (expect){"contiguous-of-struct", c3, 2, 69, 0, 96, 0, 91, 0, {{0, 0}}};
    copies(&e[ne++], &sp, (const long[]){0, 32, 64}, 3);
    MPI_Type_vector(2, 2, 3, st_plain, &t[nt]);
    e[ne] = (expect){"vector-of-struct", t[nt++], 2, 92, 0, 160, 0, 155, 0, {{0, 0}}};
    copies(&e[ne++], &sp, (const long[]){0, 32, 96, 128}, 4);
    MPI_Type_create_hvector(3, 1, -40, st_plain, &t[nt]);
    e[ne] = (expect){"hvector-of-struct-negative", t[nt++], 2, 69, -80, 112, -80, 107, 0, {{0, 0}}};
    copies(&e[ne++], &sp, (const long[]){0, -40, -80}, 3);
    const expect c3e = e[ne - 3];
    MPI_Type_dup(c3, &t[nt]);
    e[ne] = c3e;
    e[ne].name = "dup-of-contiguous-of-struct", e[ne++].dt = t[nt++];
    MPI_Type_create_resized(c3, 0, 100, &t[nt]);
    e[ne] = c3e;
    e[ne].name = "resized-contiguous-of-struct", e[ne].extent = 100, e[ne++].dt = t[nt++];
    {
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 100};
        MPI_Datatype ty[2] = {c3, MPI_INT};
        MPI_Type_create_struct(2, bl, dp, ty, &t[nt]);
        e[ne] = c3e;
        e[ne].name = "struct-after-contiguous-of-struct", e[ne].dt = t[nt++];
        e[ne].size = 73, e[ne].extent = 104, e[ne].true_extent = 104;
        e[ne].p[e[ne].np++] = (piece){100, 4};
        ne++;
    }
    MPI_Type_contiguous(2, c3, &t[nt]);
    e[ne] = (expect){"contiguous-of-contiguous-of-struct", t[nt++], 2, 138, 0, 192, 0, 187, 0, {{0, 0}}};
    copies(&e[ne++], &c3e, (const long[]){0, 96}, 2);

    for (int i = 0; i < nt; i++)
        MPI_Type_commit(&t[i]);
    for (int i = 0; i < ne; i++)
        errs += check_type(&e[i], partner);
    for (int i = 0; i < nt; i++)
        MPI_Type_free(&t[i]);
    MPI_Type_free(&vec2);

    /* absolute addresses with MPI_BOTTOM: a struct of two separate heap objects */
    {
        int *x = mt_malloc(sizeof(int) * 3), *rx = mt_malloc(sizeof(int) * 3);
        double *y = mt_malloc(sizeof(double)), *ry = mt_malloc(sizeof(double));
        x[0] = rank, x[1] = rank + 1, x[2] = rank + 2, *y = rank * 0.5;
        rx[0] = rx[1] = rx[2] = -1, *ry = -1;
        MPI_Datatype ta, tr;
        int bl[2] = {3, 1};
        MPI_Aint dp[2];
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Get_address(x, &dp[0]);
        MPI_Get_address(y, &dp[1]);
        MPI_Type_create_struct(2, bl, dp, ty, &ta);
        MPI_Type_commit(&ta);
        MPI_Get_address(rx, &dp[0]);
        MPI_Get_address(ry, &dp[1]);
        MPI_Type_create_struct(2, bl, dp, ty, &tr);
        MPI_Type_commit(&tr);
        MT_CHECK_RC(errs, MPI_Sendrecv(MPI_BOTTOM, 1, ta, partner, 9, MPI_BOTTOM, 1, tr, partner, 9,
                                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(errs, rx[0] == partner && rx[1] == partner + 1 && rx[2] == partner + 2 && *ry == partner * 0.5,
                 "MPI_BOTTOM struct: got %d %d %d %g", rx[0], rx[1], rx[2], *ry);
        MPI_Type_free(&ta);
        MPI_Type_free(&tr);
        free(x), free(rx), free(y), free(ry);
    }
    return mt_finish(errs);
}
