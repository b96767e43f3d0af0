/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's large-count (_c) datatype functions:
 *   - every _c constructor against its int twin built with the same values: the same size, extents and packed
 *     bytes; its envelope and contents as MPI-4.1 5.1.13 lists them for the large-count forms (counts and
 *     displacements as large counts, the int arguments of subarray and darray as integers), and the int
 *     MPI_Type_get_envelope / get_contents refusing such a type (MPI_ERR_TYPE);
 *   - values beyond INT_MAX without allocating them: sizes, extents, Pack_size_c, Pack_external_size_c,
 *     Get_elements_c, Get_count_c, and the int forms' MPI_UNDEFINED;
 *   - Pack_c / Unpack_c / Pack_external_c / Unpack_external_c against their int forms;
 *   - a type made by a large-count constructor in communication, before and after a migration point (the
 *     Rotate runs move every rank there), with Send_c and Recv_c, its envelope read again after the move. */
#include "mtest.h"

#define BIG ((MPI_Count)3 << 31) /* 6 GiB: beyond an int */
#if MT_MPICH_BUGS /* MPICH 4.0.2 has no MPI_Status_set_elements_c: its _x form is the same call */
#define MPI_Status_set_elements_c MPI_Status_set_elements_x
#endif

typedef struct want {
    MPI_Count ni, na, nl, nd;
    int combiner;
    int ints[16];
    MPI_Count counts[16];
    MPI_Datatype types[2];
} want;

/* The _c envelope and contents of `dt` are exactly `w`; the int forms refuse the type when it has large
 * counts. */
static int check_env(const char *what, MPI_Datatype dt, const want *w)
{
    int errs = 0, comb = -1;
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    MT_CHECK_RC(errs, MPI_Type_get_envelope_c(dt, &ni, &na, &nl, &nd, &comb));
    MT_CHECK(errs, ni == w->ni && na == w->na && nl == w->nl && nd == w->nd && comb == w->combiner,
             "%s: envelope_c (%lld, %lld, %lld, %lld, combiner %d), expected (%lld, %lld, %lld, %lld, %d)", what,
             (long long)ni, (long long)na, (long long)nl, (long long)nd, comb, (long long)w->ni, (long long)w->na,
             (long long)w->nl, (long long)w->nd, w->combiner);
    if (errs)
        return errs;
    int ints[16];
    MPI_Aint aints[4];
    MPI_Count counts[16];
    MPI_Datatype types[2];
    MT_CHECK_RC(errs, MPI_Type_get_contents_c(dt, 16, 4, 16, 2, ints, aints, counts, types));
    for (MPI_Count i = 0; i < ni; i++)
        MT_CHECK(errs, ints[i] == w->ints[i], "%s: integer %lld is %d, expected %d", what, (long long)i, ints[i],
                 w->ints[i]);
    for (MPI_Count i = 0; i < nl; i++)
        MT_CHECK(errs, counts[i] == w->counts[i], "%s: large count %lld is %lld, expected %lld", what, (long long)i,
                 (long long)counts[i], (long long)w->counts[i]);
    for (MPI_Count i = 0; i < nd; i++)
        MT_CHECK(errs, types[i] == w->types[i], "%s: datatype %lld is 0x%x, expected 0x%x", what, (long long)i,
                 (unsigned)types[i], (unsigned)w->types[i]);
    /* arrays one too small: MPI_ERR_ARG; the int forms cannot describe the type: MPI_ERR_TYPE (MPICH 4.0.2 says
     * MPI_ERR_OTHER for both; MPI_ERR_TYPE since MPICH 4.1, pmodels/mpich#6556) */
    if (nl > 0 && !MT_MPICH_BUGS) {
        MT_CHECK_CLASS(errs, MPI_Type_get_contents_c(dt, 16, 4, nl - 1, 2, ints, aints, counts, types), MPI_ERR_ARG);
        int i1, i2, i3, i4;
        MT_CHECK_CLASS(errs, MPI_Type_get_envelope(dt, &i1, &i2, &i3, &i4), MPI_ERR_TYPE);
        MT_CHECK_CLASS(errs, MPI_Type_get_contents(dt, 16, 4, 2, ints, aints, types), MPI_ERR_TYPE);
    }
    return errs;
}

/* The int-form twin `a` and the _c type `b` describe the same data: sizes, extents, packed bytes. */
static int check_twins(const char *what, MPI_Datatype a, MPI_Datatype b)
{
    int errs = 0;
    MPI_Count sa, sb, la, ea, lb, eb, tla, tea, tlb, teb;
    MT_CHECK_RC(errs, MPI_Type_size_c(a, &sa));
    MT_CHECK_RC(errs, MPI_Type_size_c(b, &sb));
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(a, &la, &ea));
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(b, &lb, &eb));
    MT_CHECK_RC(errs, MPI_Type_get_true_extent_c(a, &tla, &tea));
    MT_CHECK_RC(errs, MPI_Type_get_true_extent_c(b, &tlb, &teb));
    MT_CHECK(errs, sa == sb && la == lb && ea == eb && tla == tlb && tea == teb,
             "%s: size %lld/%lld, extent [%lld +%lld]/[%lld +%lld], true [%lld +%lld]/[%lld +%lld]", what,
             (long long)sa, (long long)sb, (long long)la, (long long)ea, (long long)lb, (long long)eb,
             (long long)tla, (long long)tea, (long long)tlb, (long long)teb);
    int isz = -1;
    MPI_Aint l = 0, e = 0;
    MT_CHECK_RC(errs, MPI_Type_size(b, &isz));
    MT_CHECK_INT(errs, "int Type_size of a small _c type", sa, isz);
    MT_CHECK_RC(errs, MPI_Type_get_extent(b, &l, &e));
    MT_CHECK(errs, l == lb && e == eb, "%s: int Type_get_extent [%td +%td]", what, l, e);
    /* two instances of each packed from the same bytes */
    enum { N = 2048, OFF = 256 };
    unsigned char *src = mt_malloc(N), *pa = mt_malloc(N), *pb = mt_malloc(N);
    MT_CHECK_RC(errs, MPI_Type_commit(&a));
    MT_CHECK_RC(errs, MPI_Type_commit(&b));
    mt_fill(src, N, 1, 7);
    MPI_Count posa = 0, posb = 0;
    MT_CHECK_RC(errs, MPI_Pack_c(src + OFF, 2, a, pa, N, &posa, MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Pack_c(src + OFF, 2, b, pb, N, &posb, MPI_COMM_WORLD));
    MT_CHECK(errs, posa == 2 * sa && posb == posa && !memcmp(pa, pb, (size_t)posa),
             "%s: packed %lld and %lld bytes, or they differ", what, (long long)posa, (long long)posb);
    free(src);
    free(pa);
    free(pb);
    return errs;
}

static int constructors(void)
{
    int errs = 0;
    MPI_Datatype a, b;
    const int ibl[3] = {1, 2, 3}, idis[3] = {0, 3, 8};
    const MPI_Count cbl[3] = {1, 2, 3}, cdis[3] = {0, 3, 8}, cbdis[3] = {0, 12, 32};
    const MPI_Aint abdis[3] = {0, 12, 32};

    MT_CALL(MPI_Type_contiguous(5, MPI_INT, &a));
    MT_CALL(MPI_Type_contiguous_c(5, MPI_INT, &b));
    errs += check_twins("contiguous", a, b);
    errs += check_env("contiguous_c", b, &(want){0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, {0}, {5}, {MPI_INT}});
    errs += check_env("contiguous", a, &(want){1, 0, 0, 1, MPI_COMBINER_CONTIGUOUS, {5}, {0}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_vector(3, 2, 4, MPI_INT, &a));
    MT_CALL(MPI_Type_vector_c(3, 2, 4, MPI_INT, &b));
    errs += check_twins("vector", a, b);
    errs += check_env("vector_c", b, &(want){0, 0, 3, 1, MPI_COMBINER_VECTOR, {0}, {3, 2, 4}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &a));
    MT_CALL(MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &b));
    errs += check_twins("hvector", a, b);
    errs += check_env("hvector_c", b, &(want){0, 0, 3, 1, MPI_COMBINER_HVECTOR, {0}, {3, 2, 20}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_indexed(3, ibl, idis, MPI_INT, &a));
    MT_CALL(MPI_Type_indexed_c(3, cbl, cdis, MPI_INT, &b));
    errs += check_twins("indexed", a, b);
    errs += check_env("indexed_c", b,
                      &(want){0, 0, 7, 1, MPI_COMBINER_INDEXED, {0}, {3, 1, 2, 3, 0, 3, 8}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_create_hindexed(3, ibl, abdis, MPI_INT, &a));
    MT_CALL(MPI_Type_create_hindexed_c(3, cbl, cbdis, MPI_INT, &b));
    errs += check_twins("hindexed", a, b);
    errs += check_env("hindexed_c", b,
                      &(want){0, 0, 7, 1, MPI_COMBINER_HINDEXED, {0}, {3, 1, 2, 3, 0, 12, 32}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_create_indexed_block(3, 2, idis, MPI_INT, &a));
    MT_CALL(MPI_Type_create_indexed_block_c(3, 2, cdis, MPI_INT, &b));
    errs += check_twins("indexed_block", a, b);
    errs += check_env("indexed_block_c", b,
                      &(want){0, 0, 5, 1, MPI_COMBINER_INDEXED_BLOCK, {0}, {3, 2, 0, 3, 8}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    MT_CALL(MPI_Type_create_hindexed_block(3, 2, abdis, MPI_INT, &a));
    MT_CALL(MPI_Type_create_hindexed_block_c(3, 2, cbdis, MPI_INT, &b));
    errs += check_twins("hindexed_block", a, b);
    errs += check_env("hindexed_block_c", b,
                      &(want){0, 0, 5, 1, MPI_COMBINER_HINDEXED_BLOCK, {0}, {3, 2, 0, 12, 32}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    {
        const int sbl[2] = {1, 2};
        const MPI_Count csbl[2] = {1, 2}, csd[2] = {0, 8};
        const MPI_Aint asd[2] = {0, 8};
        const MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE};
        MT_CALL(MPI_Type_create_struct(2, sbl, asd, st, &a));
        MT_CALL(MPI_Type_create_struct_c(2, csbl, csd, st, &b));
        errs += check_twins("struct", a, b);
        errs += check_env("struct_c", b,
                          &(want){0, 0, 5, 2, MPI_COMBINER_STRUCT, {0}, {2, 1, 2, 0, 8}, {MPI_INT, MPI_DOUBLE}});
        MPI_Type_free(&a), MPI_Type_free(&b);
    }

    MT_CALL(MPI_Type_create_resized(MPI_INT, -4, 16, &a));
    MT_CALL(MPI_Type_create_resized_c(MPI_INT, -4, 16, &b));
    errs += check_twins("resized", a, b);
    errs += check_env("resized_c", b, &(want){0, 0, 2, 1, MPI_COMBINER_RESIZED, {0}, {-4, 16}, {MPI_INT}});
    MPI_Type_free(&a), MPI_Type_free(&b);

    {
        const int sz[2] = {4, 5}, sub[2] = {2, 3}, st[2] = {1, 1};
        const MPI_Count csz[2] = {4, 5}, csub[2] = {2, 3}, cst[2] = {1, 1};
        MT_CALL(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &a));
        MT_CALL(MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT, &b));
        errs += check_twins("subarray", a, b);
        errs += check_env("subarray_c", b,
                          &(want){2, 0, 6, 1, MPI_COMBINER_SUBARRAY, {2, MPI_ORDER_C}, {4, 5, 2, 3, 1, 1}, {MPI_INT}});
        MPI_Type_free(&a), MPI_Type_free(&b);
    }
    {
        const int gs[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                  darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
        const MPI_Count cgs[2] = {8, 6};
        MT_CALL(MPI_Type_create_darray(4, 1, 2, gs, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_INT, &a));
        MT_CALL(MPI_Type_create_darray_c(4, 1, 2, cgs, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_INT, &b));
        errs += check_twins("darray", a, b);
        errs += check_env("darray_c", b,
                          &(want){10, 0, 2, 1, MPI_COMBINER_DARRAY,
                                  {4, 1, 2, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2,
                                   2, 2, MPI_ORDER_FORTRAN},
                                  {8, 6},
                                  {MPI_INT}});
        MPI_Type_free(&a), MPI_Type_free(&b);
    }

    /* a _c type inside an int-form one: only the outer envelope matters */
    MT_CALL(MPI_Type_contiguous_c(2, MPI_INT, &b));
    MT_CALL(MPI_Type_contiguous(3, b, &a));
    int ni, na, nd, comb, cnt;
    MPI_Aint ad;
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    MT_CHECK_RC(errs, MPI_Type_get_envelope(a, &ni, &na, &nd, &comb));
    MT_CHECK_RC(errs, MPI_Type_get_contents(a, 1, 0, 1, &cnt, &ad, &inner));
    MT_CHECK(errs, cnt == 3, "contiguous of a _c type: count %d", cnt);
    errs += check_env("the inner _c type, from get_contents", inner,
                      &(want){0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, {0}, {2}, {MPI_INT}});
    MPI_Type_free(&inner), MPI_Type_free(&a), MPI_Type_free(&b);

    /* bad arguments: the error classes of the int forms */
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MT_CHECK_CLASS(errs, MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Type_vector_c(2, -1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    const MPI_Count negbl[2] = {1, -3};
    MT_CHECK_CLASS(errs, MPI_Type_create_hindexed_c(2, negbl, cdis, MPI_INT, &t), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Type_create_struct_c(1, cbl, cdis, NULL, &t), MPI_ERR_ARG);
    const MPI_Count badsz[1] = {4}, badsub[1] = {5}, badst[1] = {0};
    if (!MT_MPICH_BUGS) /* MPICH 4.0.2 makes a type of a subsize beyond the size */
        MT_CHECK_CLASS(errs, MPI_Type_create_subarray_c(1, badsz, badsub, badst, MPI_ORDER_C, MPI_INT, &t),
                       MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Type_create_resized_c(MPI_DATATYPE_NULL, 0, 4, &t), MPI_ERR_TYPE);
    return errs;
}

/* Sizes and counts beyond INT_MAX, of types never allocated. */
static int beyond_int(void)
{
    int errs = 0, isz = 0;
    MPI_Datatype big, vec, hv, blk;
    MPI_Count sz = -1, lb = -1, ext = -1;

    MT_CALL(MPI_Type_contiguous_c(BIG, MPI_CHAR, &big));
    MT_CALL(MPI_Type_commit(&big));
    MT_CHECK_RC(errs, MPI_Type_size_c(big, &sz));
    MT_CHECK_INT(errs, "Type_size_c of 6 GiB of chars", BIG, sz);
    MT_CHECK_RC(errs, MPI_Type_size(big, &isz));
    MT_CHECK_INT(errs, "int Type_size of 6 GiB", MPI_UNDEFINED, isz);
    MPI_Count xsz = -1;
    MT_CHECK_RC(errs, MPI_Type_size_x(big, &xsz));
    MT_CHECK_INT(errs, "Type_size_x of 6 GiB", BIG, xsz);
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(big, &lb, &ext));
    MT_CHECK(errs, lb == 0 && ext == BIG, "Type_get_extent_c: [%lld +%lld]", (long long)lb, (long long)ext);
    MPI_Aint alb = -1, aext = -1; /* an MPI_Aint holds it: the int form gives it as it is */
    MT_CHECK_RC(errs, MPI_Type_get_true_extent(big, &alb, &aext));
    MT_CHECK(errs, alb == 0 && aext == (MPI_Aint)BIG, "Type_get_true_extent: [%td +%td]", alb, aext);
    errs += check_env("6 GiB contiguous_c", big,
                      &(want){0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, {0}, {BIG}, {MPI_CHAR}});

    /* 3 blocks of 2^30 doubles, 2^31 doubles apart: 24 GiB of data */
    MT_CALL(MPI_Type_vector_c(3, (MPI_Count)1 << 30, (MPI_Count)1 << 31, MPI_DOUBLE, &vec));
    MT_CHECK_RC(errs, MPI_Type_size_c(vec, &sz));
    MT_CHECK_INT(errs, "Type_size_c of a 24 GiB vector", (MPI_Count)3 << 33, sz);
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(vec, &lb, &ext));
    MT_CHECK_INT(errs, "extent of the vector", ((MPI_Count)5 << 30) * 8, ext);
    MT_CHECK_RC(errs, MPI_Type_get_true_extent_c(vec, &lb, &ext));
    MT_CHECK_INT(errs, "true extent of the vector", ((MPI_Count)5 << 30) * 8, ext);
    MT_CHECK_RC(errs, MPI_Type_size(vec, &isz));
    MT_CHECK_INT(errs, "int Type_size of the vector", MPI_UNDEFINED, isz);

    /* strides and displacements beyond an int */
    MT_CALL(MPI_Type_create_hvector_c(2, 1, (MPI_Count)1 << 33, MPI_INT, &hv));
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(hv, &lb, &ext));
    MT_CHECK_INT(errs, "extent of an hvector 8 GiB apart", ((MPI_Count)1 << 33) + 4, ext);
    const MPI_Count far[2] = {0, (MPI_Count)1 << 32};
    MT_CALL(MPI_Type_create_indexed_block_c(2, 1, far, MPI_CHAR, &blk));
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(blk, &lb, &ext));
    MT_CHECK_INT(errs, "extent of an indexed block 4 GiB apart", ((MPI_Count)1 << 32) + 1, ext);
    MT_CHECK_RC(errs, MPI_Type_size_c(blk, &sz));
    MT_CHECK_INT(errs, "size of the indexed block", 2, sz);

    /* subarray and darray of arrays beyond an int: 8 Gi chars, 4 Gi of them from 2 Gi on; 6 Gi chars in blocks
     * over 2 processes, the second's */
    MPI_Datatype sa, da;
    const MPI_Count asz[1] = {(MPI_Count)1 << 33}, asub[1] = {(MPI_Count)1 << 32}, ast[1] = {(MPI_Count)1 << 31};
    MT_CALL(MPI_Type_create_subarray_c(1, asz, asub, ast, MPI_ORDER_C, MPI_CHAR, &sa));
    MT_CHECK_RC(errs, MPI_Type_size_c(sa, &sz));
    MT_CHECK_RC(errs, MPI_Type_get_extent_c(sa, &lb, &ext));
    MT_CHECK(errs, sz == (MPI_Count)1 << 32 && lb == 0 && ext == (MPI_Count)1 << 33,
             "subarray_c of 8 Gi: size %lld, extent [%lld +%lld]", (long long)sz, (long long)lb, (long long)ext);
    MT_CHECK_RC(errs, MPI_Type_get_true_extent_c(sa, &lb, &ext));
    MT_CHECK(errs, lb == (MPI_Count)1 << 31 && ext == (MPI_Count)1 << 32, "subarray_c's true extent [%lld +%lld]",
             (long long)lb, (long long)ext);
    errs += check_env("subarray_c of 8 Gi", sa,
                      &(want){2, 0, 3, 1, MPI_COMBINER_SUBARRAY, {1, MPI_ORDER_C},
                              {(MPI_Count)1 << 33, (MPI_Count)1 << 32, (MPI_Count)1 << 31}, {MPI_CHAR}});
    const MPI_Count dgs[1] = {BIG};
    const int ddist[1] = {MPI_DISTRIBUTE_BLOCK}, ddarg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, dps[1] = {2};
    MT_CALL(MPI_Type_create_darray_c(2, 1, 1, dgs, ddist, ddarg, dps, MPI_ORDER_C, MPI_CHAR, &da));
    MT_CHECK_RC(errs, MPI_Type_size_c(da, &sz));
    MT_CHECK_RC(errs, MPI_Type_get_true_extent_c(da, &lb, &ext));
    MT_CHECK(errs, sz == BIG / 2 && lb == BIG / 2 && ext == BIG / 2,
             "darray_c of 6 Gi, the second block: size %lld, true extent [%lld +%lld]", (long long)sz, (long long)lb,
             (long long)ext);
    errs += check_env("darray_c of 6 Gi", da,
                      &(want){7, 0, 1, 1, MPI_COMBINER_DARRAY,
                              {2, 1, 1, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_ORDER_C}, {BIG},
                              {MPI_CHAR}});
    MPI_Type_free(&sa), MPI_Type_free(&da);

    /* packing sizes */
    MT_CHECK_RC(errs, MPI_Pack_size_c(2, big, MPI_COMM_WORLD, &sz));
    MT_CHECK_INT(errs, "Pack_size_c of 2 x 6 GiB", 2 * BIG, sz);
    isz = 0;
    if (!MT_MPICH_BUGS) { /* vmpi's: no int buffer holds it (MPICH 4.0.2 gives a truncated size, and truncates
                           * Pack_external_size_c's to an int) */
        MT_CHECK_CLASS(errs, MPI_Pack_size(1, big, MPI_COMM_WORLD, &isz), MPI_ERR_ARG);
        MT_CHECK_RC(errs, MPI_Pack_external_size_c("external32", 1, big, &sz));
        MT_CHECK_INT(errs, "Pack_external_size_c of 6 GiB of chars", BIG, sz);
    }
    MT_CHECK_RC(errs, MPI_Pack_size_c(BIG, MPI_INT, MPI_COMM_WORLD, &sz));
    MT_CHECK_INT(errs, "Pack_size_c of a count beyond an int", 4 * BIG, sz);

    /* statuses */
    MPI_Status st;
    MPI_Count c = -1;
    int ic = 0;
    MT_CHECK_RC(errs, MPI_Status_set_elements_c(&st, MPI_CHAR, BIG));
    MT_CHECK_RC(errs, MPI_Get_elements_c(&st, MPI_CHAR, &c));
    MT_CHECK_INT(errs, "Get_elements_c after Status_set_elements_c(6 Gi chars)", BIG, c);
    MT_CHECK_RC(errs, MPI_Get_elements(&st, MPI_CHAR, &ic));
    MT_CHECK_INT(errs, "int Get_elements of 6 Gi", MPI_UNDEFINED, ic);
    MT_CHECK_RC(errs, MPI_Get_count_c(&st, MPI_CHAR, &c));
    MT_CHECK_INT(errs, "Get_count_c of 6 Gi chars", BIG, c);
    MT_CHECK_RC(errs, MPI_Get_count(&st, MPI_CHAR, &ic));
    MT_CHECK_INT(errs, "int Get_count of 6 Gi", MPI_UNDEFINED, ic);
    MT_CHECK_RC(errs, MPI_Get_count(&st, big, &ic));
    MT_CHECK_INT(errs, "int Get_count of one 6 GiB type", 1, ic);
    MT_CHECK_RC(errs, MPI_Get_elements_c(&st, big, &c));
    MT_CHECK_INT(errs, "Get_elements_c of one 6 GiB type", BIG, c);
    /* basic elements of the 6 GiB type: one instance and 5 chars of the next */
    if (!MT_MPICH_BUGS) { /* MPICH 4.0.2's Status_set_elements_x miscounts this */
        MT_CHECK_RC(errs, MPI_Status_set_elements_c(&st, big, BIG + 5));
        MT_CHECK_RC(errs, MPI_Get_count_c(&st, MPI_CHAR, &c));
        MT_CHECK_INT(errs, "Get_count_c of chars after Status_set_elements_c(big, 6 Gi + 5)", BIG + 5, c);
        MT_CHECK_RC(errs, MPI_Get_count_c(&st, big, &c));
        MT_CHECK_INT(errs, "Get_count_c of a partial 6 GiB type", MPI_UNDEFINED, c);
    }
    MT_CHECK_RC(errs, MPI_Status_set_elements(&st, MPI_INT, 5));
    MT_CHECK_RC(errs, MPI_Get_count_c(&st, MPI_DOUBLE, &c));
    MT_CHECK_INT(errs, "Get_count_c of 5 ints as doubles", MPI_UNDEFINED, c);
    MT_CHECK_CLASS(errs, MPI_Status_set_elements_c(&st, MPI_INT, -1), MPI_ERR_COUNT);

    MPI_Type_free(&big), MPI_Type_free(&vec), MPI_Type_free(&hv), MPI_Type_free(&blk);
    return errs;
}

/* Pack_c and friends give what the int forms give, and positions count on from where they were. */
static int packing(void)
{
    int errs = 0;
    enum { N = 24 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = 1000 + i, out[i] = -1;
    MPI_Datatype v;
    MT_CALL(MPI_Type_vector_c(4, 2, 3, MPI_INT, &v)); /* 2 of every 3 ints, 4 times: extent 11 ints */
    MT_CALL(MPI_Type_commit(&v));
    char pa[256], pb[256];
    int ipos = 4;
    MPI_Count cpos = 4;
    MT_CHECK_RC(errs, MPI_Pack(in, 2, v, pa, sizeof pa, &ipos, MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Pack_c(in, 2, v, pb, sizeof pb, &cpos, MPI_COMM_WORLD));
    MT_CHECK(errs, ipos == 4 + 64 && cpos == ipos && !memcmp(pa + 4, pb + 4, 64),
             "Pack / Pack_c: positions %d and %lld, expected 68, or different bytes", ipos, (long long)cpos);
    cpos = 4;
    MT_CHECK_RC(errs, MPI_Unpack_c(pb, sizeof pb, &cpos, out, 2, v, MPI_COMM_WORLD));
    MT_CHECK_INT(errs, "Unpack_c position", 68, cpos);
    for (int i = 0; i < N; i++) { /* the second instance starts one extent (11 ints) on */
        int k = (i < 11 ? i : i - 11) % 3, in_type = i < 22 && k < 2;
        MT_CHECK(errs, out[i] == (in_type ? in[i] : -1), "Unpack_c: int %d is %d", i, out[i]);
    }
    /* too little room: MPI_ERR_TRUNCATE, as the int form */
    cpos = 200;
    if (!MT_MPICH_BUGS) /* MPICH 4.0.2 packs past the buffer's end */
        MT_CHECK_CLASS(errs, MPI_Pack_c(in, 2, v, pb, sizeof pb, &cpos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    MT_CHECK_CLASS(errs, MPI_Pack_c(in, 1, v, pb, sizeof pb, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);

    MPI_Aint apos = 0;
    MPI_Count epos = 0, esz = -1;
    MT_CHECK_RC(errs, MPI_Pack_external("external32", in, 2, v, pa, sizeof pa, &apos));
    MT_CHECK_RC(errs, MPI_Pack_external_c("external32", in, 2, v, pb, sizeof pb, &epos));
    MT_CHECK_RC(errs, MPI_Pack_external_size_c("external32", 2, v, &esz));
    MT_CHECK(errs, apos == 64 && epos == apos && esz == 64 && !memcmp(pa, pb, 64),
             "Pack_external / _c: positions %td and %lld, size_c %lld, expected 64, or different bytes", apos,
             (long long)epos, (long long)esz);
    MT_CHECK(errs, (unsigned char)pb[3] == (1000 & 0xff) && pb[0] == 0, "external32 is big-endian: %02x %02x",
             (unsigned char)pb[0], (unsigned char)pb[3]);
    for (int i = 0; i < N; i++)
        out[i] = -1;
    epos = 0;
    MT_CHECK_RC(errs, MPI_Unpack_external_c("external32", pb, sizeof pb, &epos, out, 2, v));
    MT_CHECK(errs, epos == 64 && out[0] == 1000 && out[1] == 1001 && out[2] == -1 && out[21] == 1021,
             "Unpack_external_c: position %lld, ints %d %d %d %d", (long long)epos, out[0], out[1], out[2], out[21]);
    if (!MT_MPICH_BUGS) /* MPICH 4.0.2 packs external32 whatever the representation's name */
        MT_CHECK_CLASS(errs, MPI_Pack_external_c("native", in, 1, v, pb, sizeof pb, &epos), MPI_ERR_ARG);
    MPI_Type_free(&v);
    return errs;
}

/* A large-count type in communication, before and after a migration point. */
enum { VN = 8 };
static int exchange(MPI_Datatype vt, int rank, int size, int round)
{
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *sbuf = mt_malloc(sizeof(double) * 4 * VN), *rbuf = mt_malloc(sizeof(double) * 2 * VN);
    for (int i = 0; i < 4 * VN; i++)
        sbuf[i] = rank * 1000 + round * 100 + i;
    MPI_Request rq;
    MT_CHECK_RC(errs, MPI_Irecv_c(rbuf, 2 * VN, MPI_DOUBLE, left, round, MPI_COMM_WORLD, &rq));
    MT_CHECK_RC(errs, MPI_Send_c(sbuf, 2, vt, right, round, MPI_COMM_WORLD));
    MPI_Status st;
    MT_CHECK_RC(errs, MPI_Wait(&rq, &st));
    MPI_Count n = -1;
    MT_CHECK_RC(errs, MPI_Get_count_c(&st, vt, &n));
    MT_CHECK_INT(errs, "Get_count_c of the received vectors", 2, n);
    for (int i = 0; i < 2 * VN; i++) { /* every other double; the second vector one extent (2 VN - 1) on */
        int want = left * 1000 + round * 100 + (i / VN) * (2 * VN - 1) + 2 * (i % VN);
        MT_CHECK(errs, rbuf[i] == want, "round %d: element %d is %g, expected %d", round, i, rbuf[i], want);
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
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    errs += constructors();
    errs += beyond_int();
    errs += packing();

    /* every other double: a vector_c made before the migration point and used on both sides of it */
    MPI_Datatype vt;
    MT_CALL(MPI_Type_vector_c(VN, 1, 2, MPI_DOUBLE, &vt));
    MT_CALL(MPI_Type_commit(&vt));
    errs += exchange(vt, rank, size, 1);
    mt_migrate();
    errs += exchange(vt, rank, size, 2);
    errs += check_env("vector_c after a migration", vt,
                      &(want){0, 0, 3, 1, MPI_COMBINER_VECTOR, {0}, {VN, 1, 2}, {MPI_DOUBLE}});
    mt_migrate();
    errs += exchange(vt, rank, size, 3);
    MPI_Type_free(&vt);
    return mt_finish(errs);
}
