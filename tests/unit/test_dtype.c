/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the datatype engine (dtype/dtype.h): copy, pack, unpack and element counting on hand-built
 * non-contiguous block lists, checked byte by byte against a reference that lists every data byte's offset in
 * typemap order, and the predefined types against C's own sizeof/offsetof. */
#include <mpi.h>

#include "dtype/dtype.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define UNIT_REPORT_MAX 40
#include "unit_check.h"

#define IDX(h) ((h)&0x03ffffff)

/* ---- hand-built types ---- */

/* {0,4},{8,4} extent 16: two 4-byte pieces with a gap, 8 bytes of data in 16 */
static const vmpi_dtype_block b_gap[] = {{0, 4, 1, 0}, {8, 4, 1, 0}};
static const vmpi_dtype_elems e_gap[] = {{2, 4}};
static const vmpi_dtype t_gap = {.size = 8, .lb = 0, .extent = 16, .true_lb = 0, .true_extent = 12,
                                 .contig = false, .nblocks = 2, .blocks = b_gap, .nelems_runs = 1,
                                 .elems = e_gap, .nelems = 2, .name = "gap"};

/* three blocks out of address order, one at a negative displacement, with gaps: data order is the block
 * order {4,2} {-6,3} {10,5}; lb -6, resized to extent 24 */
static const vmpi_dtype_block b_neg[] = {{4, 2, 1, 0}, {-6, 3, 1, 0}, {10, 5, 1, 0}};
static const vmpi_dtype_elems e_neg[] = {{10, 1}};
static const vmpi_dtype t_neg = {.size = 10, .lb = -6, .extent = 24, .true_lb = -6, .true_extent = 21,
                                 .contig = false, .nblocks = 3, .blocks = b_neg, .nelems_runs = 1,
                                 .elems = e_neg, .nelems = 10, .name = "neg"};

/* a single block with a zero-length block in front of it and holes between instances */
static const vmpi_dtype_block b_hole[] = {{2, 0, 1, 0}, {3, 7, 1, 0}};
static const vmpi_dtype_elems e_hole[] = {{7, 1}};
static const vmpi_dtype t_hole = {.size = 7, .lb = 0, .extent = 11, .true_lb = 3, .true_extent = 7,
                                  .contig = false, .nblocks = 2, .blocks = b_hole, .nelems_runs = 1,
                                  .elems = e_hole, .nelems = 7, .name = "hole"};

/* contiguous with a non-zero lb: `count` instances are one block at lb */
static const vmpi_dtype_block b_lb[] = {{4, 8, 1, 0}};
static const vmpi_dtype_elems e_lb[] = {{2, 4}};
static const vmpi_dtype t_lb = {.size = 8, .lb = 4, .extent = 8, .true_lb = 4, .true_extent = 8, .contig = true,
                                .nblocks = 1, .blocks = b_lb, .nelems_runs = 1, .elems = e_lb, .nelems = 2,
                                .name = "contig-lb"};
/* the same layout not marked contiguous: must give the same bytes through the block walk */
static const vmpi_dtype t_lb_walk = {.size = 8, .lb = 4, .extent = 8, .true_lb = 4, .true_extent = 8,
                                     .contig = false, .nblocks = 1, .blocks = b_lb, .nelems_runs = 1,
                                     .elems = e_lb, .nelems = 2, .name = "contig-lb-walked"};

/* mixed element runs for Get_elements: 3 x 4 bytes then 2 x 8 bytes, 28 bytes */
static const vmpi_dtype_block b_mix[] = {{0, 12, 1, 0}, {16, 16, 1, 0}};
static const vmpi_dtype_elems e_mix[] = {{3, 4}, {2, 8}};
static const vmpi_dtype t_mix = {.size = 28, .lb = 0, .extent = 32, .true_lb = 0, .true_extent = 32,
                                 .contig = false, .nblocks = 2, .blocks = b_mix, .nelems_runs = 2,
                                 .elems = e_mix, .nelems = 5, .name = "mix"};

/* strided blocks (a vector and a backward vector of 8-byte runs) after a 3-byte block */
static const vmpi_dtype_block b_vec[] = {{1, 3, 1, 0}, {8, 8, 3, 12}, {60, 4, 2, -8}};
static const vmpi_dtype_elems e_vec[] = {{35, 1}};
static const vmpi_dtype t_vec = {.size = 35, .lb = 0, .extent = 64, .true_lb = 1, .true_extent = 63,
                                 .contig = false, .nblocks = 3, .blocks = b_vec, .nelems_runs = 1,
                                 .elems = e_vec, .nelems = 35, .name = "vec"};

/* ---- the reference ---- */

#define PAD 64      /* bytes before the origin of every buffer, so negative displacements stay inside */
#define BUFSZ 1024

/* Offsets (from the buffer origin) of the data bytes of (count, dt), in typemap order. */
static int offsets(const vmpi_dtype *dt, MPI_Count count, long *off, int max)
{
    int n = 0;
    for (MPI_Count i = 0; i < count; i++)
        for (int b = 0; b < dt->nblocks; b++)
            for (MPI_Count r = 0; r < dt->blocks[b].reps; r++)
                for (MPI_Count j = 0; j < dt->blocks[b].len; j++) {
                    if (n == max) {
                        fprintf(stderr, "reference: more than %d offsets\n", max);
                        exit(2);
                    }
                    off[n++] = (long)(i * dt->extent + dt->blocks[b].disp + r * dt->blocks[b].stride + j);
                }
    return n;
}

static unsigned char sbuf[BUFSZ], rbuf[BUFSZ], want[BUFSZ], packed[BUFSZ], packed_want[BUFSZ];

static void fill_source(void)
{
    for (int i = 0; i < BUFSZ; i++)
        sbuf[i] = (unsigned char)(i * 7 + 3) | 1; /* never 0 */
}

/* Compares rbuf with want; names the first differing byte. */
static void compare(const char *what, const unsigned char *got, const unsigned char *exp, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != exp[i]) {
            CHECK(0, "%s: byte at offset %d is 0x%02x, expected 0x%02x", what, i - PAD, got[i], exp[i]);
            return;
        }
}

static void test_copy_pair(const vmpi_dtype *sdt, MPI_Count sc, const vmpi_dtype *rdt, MPI_Count rc)
{
    static long soff[BUFSZ], roff[BUFSZ];
    char what[160];
    snprintf(what, sizeof what, "copy %lld x %s -> %lld x %s", (long long)sc, sdt->name, (long long)rc,
             rdt->name);
    int ns = offsets(sdt, sc, soff, BUFSZ), nr = offsets(rdt, rc, roff, BUFSZ);
    int n = ns < nr ? ns : nr;
    fill_source();
    memset(rbuf, 0, sizeof rbuf);
    memset(want, 0, sizeof want);
    for (int k = 0; k < n; k++)
        want[PAD + roff[k]] = sbuf[PAD + soff[k]];
    MPI_Count got = vmpi_dtype_copy(sbuf + PAD, sc, sdt, rbuf + PAD, rc, rdt);
    CHECK(got == n, "%s: returned %lld bytes, expected %d", what, (long long)got, n);
    compare(what, rbuf, want, BUFSZ);
}

static void test_pack_unpack(const vmpi_dtype *dt, MPI_Count count, MPI_Count max)
{
    static long off[BUFSZ];
    char what[160];
    int n = offsets(dt, count, off, BUFSZ);
    int m = max < n ? (int)max : n;
    fill_source();
    /* pack: the first m data bytes in typemap order, nothing written past them */
    memset(packed, 0, sizeof packed);
    memset(packed_want, 0, sizeof packed_want);
    for (int k = 0; k < m; k++)
        packed_want[k] = sbuf[PAD + off[k]];
    snprintf(what, sizeof what, "pack %lld x %s max %lld", (long long)count, dt->name, (long long)max);
    MPI_Count got = vmpi_dtype_pack(sbuf + PAD, count, dt, packed, max);
    CHECK(got == m, "%s: returned %lld bytes, expected %d", what, (long long)got, m);
    for (int k = 0; k < BUFSZ; k++)
        if (packed[k] != packed_want[k]) {
            CHECK(0, "%s: packed byte %d is 0x%02x, expected 0x%02x", what, k, packed[k], packed_want[k]);
            break;
        }
    /* unpack the m bytes: exactly those data positions are written, the gaps keep their contents */
    memset(rbuf, 0xEE, sizeof rbuf);
    memset(want, 0xEE, sizeof want);
    for (int k = 0; k < m; k++)
        want[PAD + off[k]] = packed_want[k];
    snprintf(what, sizeof what, "unpack %d bytes into %lld x %s", m, (long long)count, dt->name);
    got = vmpi_dtype_unpack(packed_want, m, rbuf + PAD, count, dt);
    CHECK(got == m, "%s: returned %lld bytes, expected %d", what, (long long)got, m);
    compare(what, rbuf, want, BUFSZ);
    /* round trip: the unpacked data positions equal the source */
    for (int k = 0; k < m; k++)
        if (rbuf[PAD + off[k]] != sbuf[PAD + off[k]]) {
            CHECK(0, "round trip %lld x %s: data byte %d differs", (long long)count, dt->name, k);
            break;
        }
    /* unpacking more bytes than the buffer holds stops at its capacity */
    if (max >= n) {
        memset(rbuf, 0xEE, sizeof rbuf);
        got = vmpi_dtype_unpack(packed_want, n + 13, rbuf + PAD, count, dt);
        CHECK(got == n, "unpack %d bytes into %lld x %s (capacity %d): returned %lld", n + 13, (long long)count,
              dt->name, n, (long long)got);
        compare("unpack beyond capacity", rbuf, want, BUFSZ);
    }
}

static void test_engine(void)
{
    const vmpi_dtype *byte = vmpi_dtype_builtin(IDX(MPI_BYTE));
    const vmpi_dtype *i32 = vmpi_dtype_builtin(IDX(MPI_INT));
    const vmpi_dtype *dint = vmpi_dtype_builtin(IDX(MPI_DOUBLE_INT));
    const vmpi_dtype *all[] = {&t_gap, &t_neg, &t_hole, &t_lb, &t_lb_walk, &t_mix, &t_vec, byte, i32, dint};
    const int nall = (int)(sizeof all / sizeof all[0]);

    /* hand-checked: 3 x gap into bytes, then bytes into 2 x neg */
    fill_source();
    memset(rbuf, 0, sizeof rbuf);
    MPI_Count got = vmpi_dtype_copy(sbuf + PAD, 3, &t_gap, rbuf + PAD, 24, byte);
    CHECK(got == 24, "3 x gap -> 24 bytes: returned %lld", (long long)got);
    static const int gap_src[] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27, 32, 33, 34, 35,
                                  40, 41, 42, 43};
    for (int k = 0; k < 24; k++)
        CHECK(rbuf[PAD + k] == sbuf[PAD + gap_src[k]], "3 x gap -> bytes: byte %d is 0x%02x, expected source "
                                                       "byte %d (0x%02x)", k, rbuf[PAD + k], gap_src[k],
              sbuf[PAD + gap_src[k]]);
    memset(rbuf, 0, sizeof rbuf);
    got = vmpi_dtype_copy(sbuf + PAD, 20, byte, rbuf + PAD, 2, &t_neg);
    CHECK(got == 20, "20 bytes -> 2 x neg: returned %lld", (long long)got);
    static const int neg_dst[] = {4, 5, -6, -5, -4, 10, 11, 12, 13, 14, 28, 29, 18, 19, 20, 34, 35, 36, 37, 38};
    for (int k = 0; k < 20; k++)
        CHECK(rbuf[PAD + neg_dst[k]] == sbuf[PAD + k], "bytes -> 2 x neg: source byte %d not at offset %d", k,
              neg_dst[k]);
    CHECK(rbuf[PAD - 7] == 0 && rbuf[PAD - 3] == 0 && rbuf[PAD + 6] == 0 && rbuf[PAD + 15] == 0 &&
              rbuf[PAD + 21] == 0 && rbuf[PAD + 39] == 0,
          "bytes -> 2 x neg: a gap or a byte outside the type was written");

    /* every pair of layouts, with the receive side larger, equal and smaller (partial copies), including
     * lengths that end inside a block */
    static const MPI_Count counts[] = {0, 1, 2, 3, 5};
    for (int a = 0; a < nall; a++)
        for (int b = 0; b < nall; b++)
            for (int i = 0; i < 5; i++)
                for (int j = 0; j < 5; j++) {
                    MPI_Count sc = counts[i], rc = counts[j];
                    if (all[a] == byte)
                        sc = sc * 7 + 1;
                    if (all[b] == byte)
                        rc = rc * 5 + 3;
                    test_copy_pair(all[a], sc, all[b], rc);
                }

    /* pack / unpack round trips, whole and truncated at every length */
    for (int a = 0; a < nall; a++)
        for (MPI_Count c = 0; c <= 4; c++) {
            MPI_Count n = c * all[a]->size;
            for (MPI_Count max = 0; max <= n + 2; max++)
                test_pack_unpack(all[a], c, max);
        }
}

/* ---- element counts ---- */

static void expect_elems(const vmpi_dtype *dt, MPI_Count bytes, MPI_Count want_n)
{
    MPI_Count got = vmpi_dtype_elements(dt, bytes);
    CHECK(got == want_n, "elements(%s, %lld bytes) = %lld, expected %lld", dt->name, (long long)bytes,
          (long long)got, (long long)want_n);
}

static void test_elements(void)
{
    const vmpi_dtype *di = vmpi_dtype_builtin(IDX(MPI_DOUBLE_INT));
    CHECK(di->size == 12 && di->extent == 16, "MPI_DOUBLE_INT: size %lld extent %lld, expected 12 and 16",
          (long long)di->size, (long long)di->extent);
    expect_elems(di, 0, 0);
    expect_elems(di, 8, 1);
    expect_elems(di, 10, MPI_UNDEFINED);
    expect_elems(di, 12, 2);
    expect_elems(di, 13, MPI_UNDEFINED);
    expect_elems(di, 20, 3);
    expect_elems(di, 24, 4);
    expect_elems(di, 36, 6);
    const vmpi_dtype *si = vmpi_dtype_builtin(IDX(MPI_SHORT_INT));
    expect_elems(si, 2, 1);
    expect_elems(si, 4, MPI_UNDEFINED); /* a short and half an int */
    expect_elems(si, 6, 2);
    expect_elems(si, 8, 3);
    const vmpi_dtype *ii = vmpi_dtype_builtin(IDX(MPI_2INT));
    expect_elems(ii, 4, 1);
    expect_elems(ii, 6, MPI_UNDEFINED);
    expect_elems(ii, 12, 3);
    const vmpi_dtype *ldi = vmpi_dtype_builtin(IDX(MPI_LONG_DOUBLE_INT));
    expect_elems(ldi, (MPI_Count)sizeof(long double), 1);
    expect_elems(ldi, (MPI_Count)(sizeof(long double) + sizeof(int)), 2);
    expect_elems(ldi, (MPI_Count)(2 * sizeof(long double) + sizeof(int)), 3);
    const vmpi_dtype *i32 = vmpi_dtype_builtin(IDX(MPI_INT));
    expect_elems(i32, 0, 0);
    expect_elems(i32, 8, 2);
    expect_elems(i32, 7, MPI_UNDEFINED);
    const vmpi_dtype *lb = vmpi_dtype_builtin(IDX(MPI_LB));
    expect_elems(lb, 0, 0);
    expect_elems(&t_mix, 4, 1);
    expect_elems(&t_mix, 12, 3);
    expect_elems(&t_mix, 14, MPI_UNDEFINED);
    expect_elems(&t_mix, 20, 4);
    expect_elems(&t_mix, 28, 5);
    expect_elems(&t_mix, 28 + 12 + 8, 9);
    expect_elems(&t_mix, 28 + 12 + 4, MPI_UNDEFINED);
}

/* ---- predefined types against C ---- */

#define PAIR(A, B)                                                                                             \
    struct {                                                                                                   \
        A a;                                                                                                   \
        B b;                                                                                                   \
    }

typedef struct {
    int idx;
    const char *name;
    size_t asz, bsz; /* bsz 0: a simple type of asz bytes */
    size_t boff, extent;
} spec;

__extension__ typedef __int128 vmpi_i128; /* MPI_INTEGER16 */
#define S(h, T) {IDX(h), #h, sizeof(T), 0, 0, sizeof(T)}
#define P(h, A, B) {IDX(h), #h, sizeof(A), sizeof(B), offsetof(PAIR(A, B), b), sizeof(PAIR(A, B))}

static const spec specs[] = {
    S(MPI_CHAR, char), S(MPI_SIGNED_CHAR, signed char), S(MPI_UNSIGNED_CHAR, unsigned char),
    S(MPI_BYTE, char), S(MPI_WCHAR, wchar_t), S(MPI_SHORT, short), S(MPI_UNSIGNED_SHORT, unsigned short),
    S(MPI_INT, int), S(MPI_UNSIGNED, unsigned int), S(MPI_LONG, long), S(MPI_UNSIGNED_LONG, unsigned long),
    S(MPI_LONG_LONG_INT, long long), S(MPI_UNSIGNED_LONG_LONG, unsigned long long), S(MPI_FLOAT, float),
    S(MPI_DOUBLE, double), S(MPI_LONG_DOUBLE, long double), S(MPI_C_BOOL, _Bool), S(MPI_INT8_T, int8_t),
    S(MPI_INT16_T, int16_t), S(MPI_INT32_T, int32_t), S(MPI_INT64_T, int64_t), S(MPI_UINT8_T, uint8_t),
    S(MPI_UINT16_T, uint16_t), S(MPI_UINT32_T, uint32_t), S(MPI_UINT64_T, uint64_t), S(MPI_AINT, MPI_Aint),
    S(MPI_OFFSET, MPI_Offset), S(MPI_COUNT, MPI_Count), S(MPI_C_COMPLEX, float _Complex),
    S(MPI_C_DOUBLE_COMPLEX, double _Complex), S(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    S(MPI_PACKED, char), P(MPI_FLOAT_INT, float, int), P(MPI_DOUBLE_INT, double, int),
    P(MPI_LONG_INT, long, int), P(MPI_SHORT_INT, short, int), P(MPI_2INT, int, int),
    P(MPI_LONG_DOUBLE_INT, long double, int), S(MPI_CXX_BOOL, _Bool), S(MPI_CXX_FLOAT_COMPLEX, float _Complex),
    S(MPI_CXX_DOUBLE_COMPLEX, double _Complex), S(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex),
    /* Fortran, gfortran's default kinds */
    S(MPI_CHARACTER, char), S(MPI_LOGICAL, int), S(MPI_INTEGER, int), S(MPI_REAL, float),
    S(MPI_DOUBLE_PRECISION, double), S(MPI_COMPLEX, float _Complex), S(MPI_DOUBLE_COMPLEX, double _Complex),
    S(MPI_INTEGER1, int8_t), S(MPI_INTEGER2, int16_t), S(MPI_INTEGER4, int32_t), S(MPI_INTEGER8, int64_t),
    S(MPI_REAL4, float), S(MPI_REAL8, double), S(MPI_REAL16, long double), S(MPI_COMPLEX8, float _Complex),
    S(MPI_COMPLEX16, double _Complex), S(MPI_COMPLEX32, long double _Complex), P(MPI_2INTEGER, int, int),
    P(MPI_2REAL, float, float), P(MPI_2DOUBLE_PRECISION, double, double),
    {IDX(MPI_LB), "MPI_LB", 0, 0, 0, 0}, {IDX(MPI_UB), "MPI_UB", 0, 0, 0, 0}, S(MPI_INTEGER16, vmpi_i128),
};

static void test_builtins(void)
{
    const int nspec = (int)(sizeof specs / sizeof specs[0]);
    CHECK(nspec == VMPI_DT_BUILTIN_COUNT - 1, "test table has %d types, mpi.h %d", nspec,
          VMPI_DT_BUILTIN_COUNT - 1);
    CHECK(vmpi_dtype_builtin(0) == NULL, "builtin(0) is not NULL");
    CHECK(vmpi_dtype_builtin(-1) == NULL, "builtin(-1) is not NULL");
    CHECK(vmpi_dtype_builtin(VMPI_DT_BUILTIN_COUNT) == NULL, "builtin(VMPI_DT_BUILTIN_COUNT) is not NULL");
    CHECK(sizeof(PAIR(long double, int)) == (size_t)vmpi_dtype_builtin(IDX(MPI_LONG_DOUBLE_INT))->extent,
          "MPI_LONG_DOUBLE_INT extent %lld != sizeof(struct{long double a; int b;}) %zu",
          (long long)vmpi_dtype_builtin(IDX(MPI_LONG_DOUBLE_INT))->extent, sizeof(PAIR(long double, int)));
    for (int k = 0; k < nspec; k++) {
        const spec *s = &specs[k];
        CHECK(s->idx == k + 1, "test table out of order at %s", s->name);
        const vmpi_dtype *t = vmpi_dtype_builtin(s->idx);
        if (t == NULL) {
            CHECK(0, "%s (index %d): builtin() returned NULL", s->name, s->idx);
            continue;
        }
        bool pair = s->bsz != 0;
        MPI_Count size = (MPI_Count)(s->asz + s->bsz);
        MPI_Aint true_extent = pair ? (MPI_Aint)(s->boff + s->bsz) : (MPI_Aint)s->asz;
        CHECK(t->name && strcmp(t->name, s->name) == 0, "index %d: name %s, expected %s", s->idx,
              t->name ? t->name : "(null)", s->name);
        CHECK(t->size == size, "%s: size %lld, expected %lld", s->name, (long long)t->size, (long long)size);
        CHECK(t->extent == (MPI_Aint)s->extent, "%s: extent %lld, expected %zu", s->name, (long long)t->extent,
              s->extent);
        CHECK(t->lb == 0 && t->true_lb == 0, "%s: lb %lld true_lb %lld, expected 0", s->name, (long long)t->lb,
              (long long)t->true_lb);
        CHECK(t->true_extent == true_extent, "%s: true_extent %lld, expected %lld", s->name,
              (long long)t->true_extent, (long long)true_extent);
        CHECK(t->basic == s->idx, "%s: basic %d, expected its own index %d", s->name, t->basic, s->idx);
        MPI_Count nel = size == 0 ? 0 : pair ? 2 : 1;
        CHECK(t->nelems == nel, "%s: nelems %lld, expected %lld", s->name, (long long)t->nelems, (long long)nel);
        bool contig = !pair || (s->boff == s->asz && size == (MPI_Count)s->extent);
        CHECK(t->contig == contig, "%s: contig %d, expected %d", s->name, t->contig, contig);
        /* block list: covers exactly the data bytes of the C struct */
        MPI_Count bl = 0;
        bool in[64] = {false};
        for (int b = 0; b < t->nblocks; b++) {
            bl += t->blocks[b].len;
            for (MPI_Count j = 0; j < t->blocks[b].len; j++) {
                MPI_Aint o = t->blocks[b].disp + j;
                if (o >= 0 && o < 64)
                    in[o] = true;
                else
                    CHECK(0, "%s: block %d reaches offset %lld", s->name, b, (long long)o);
            }
        }
        CHECK(bl == size, "%s: blocks hold %lld bytes, size is %lld", s->name, (long long)bl, (long long)size);
        for (size_t o = 0; o < s->extent && o < 64; o++) {
            bool data = o < s->asz || (pair && o >= s->boff && o < s->boff + s->bsz);
            CHECK(in[o] == data, "%s: byte %zu is %sin the block list", s->name, o, in[o] ? "" : "not ");
        }
        /* element runs: sizes of the members, in order */
        MPI_Count eb = 0, en = 0;
        for (int r = 0; r < t->nelems_runs; r++) {
            eb += t->elems[r].n * t->elems[r].esize;
            en += t->elems[r].n;
        }
        CHECK(eb == size && en == nel, "%s: element runs cover %lld bytes / %lld elements, expected %lld / %lld",
              s->name, (long long)eb, (long long)en, (long long)size, (long long)nel);
        if (pair) {
            CHECK(t->elems[0].esize == (int)s->asz, "%s: first element size %d, expected %zu", s->name,
                  t->elems[0].esize, s->asz);
            expect_elems(t, (MPI_Count)s->asz, 1);
            expect_elems(t, size, 2);
            expect_elems(t, 3 * size, 6);
        } else if (size) {
            expect_elems(t, 5 * size, 5);
            if (size > 1)
                expect_elems(t, 5 * size - 1, MPI_UNDEFINED);
        }
    }
    /* a real array of C structs through a pair type: padding is skipped, both members arrive */
    PAIR(long double, int) ld[3];
    memset(ld, 0x55, sizeof ld);
    for (int i = 0; i < 3; i++) {
        ld[i].a = 1.5L + i;
        ld[i].b = 100 + i;
    }
    const vmpi_dtype *ldi = vmpi_dtype_builtin(IDX(MPI_LONG_DOUBLE_INT));
    unsigned char pk[3 * (sizeof(long double) + sizeof(int))];
    MPI_Count n = vmpi_dtype_pack(ld, 3, ldi, pk, (MPI_Count)sizeof pk);
    CHECK(n == (MPI_Count)sizeof pk, "pack 3 x MPI_LONG_DOUBLE_INT: %lld bytes, expected %zu", (long long)n,
          sizeof pk);
    PAIR(long double, int) back[3];
    memset(back, 0, sizeof back);
    vmpi_dtype_unpack(pk, n, back, 3, ldi);
    for (int i = 0; i < 3; i++)
        CHECK(back[i].a == ld[i].a && back[i].b == ld[i].b, "MPI_LONG_DOUBLE_INT round trip: element %d is "
                                                            "(%Lg, %d)", i, back[i].a, back[i].b);
    PAIR(double, int) di[4], di2[4];
    for (int i = 0; i < 4; i++) {
        di[i].a = 0.25 * i;
        di[i].b = -i;
    }
    memset(di2, 0, sizeof di2);
    const vmpi_dtype *dit = vmpi_dtype_builtin(IDX(MPI_DOUBLE_INT));
    n = vmpi_dtype_copy(di, 4, dit, di2, 3, dit); /* receive smaller: 3 instances */
    CHECK(n == 36, "copy 4 -> 3 MPI_DOUBLE_INT: %lld bytes, expected 36", (long long)n);
    for (int i = 0; i < 3; i++)
        CHECK(di2[i].a == di[i].a && di2[i].b == di[i].b, "MPI_DOUBLE_INT copy: element %d wrong", i);
    CHECK(di2[3].a == 0 && di2[3].b == 0, "MPI_DOUBLE_INT copy wrote past the receive capacity");
}

int main(void)
{
    test_engine();
    test_elements();
    test_builtins();
    if (errs) {
        fprintf(stderr, "test_dtype: %d error(s)\n", errs);
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
