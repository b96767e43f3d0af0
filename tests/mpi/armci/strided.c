/* SPDX-License-Identifier: BSD-3-Clause */
/* Strided transfers (ARMCI_PutS / ARMCI_GetS) of 0- to 8-level sections, checked byte by byte against a
 * reference copy made with plain loops (armci_test.h: segment k's offset on each side):
 *   - for every level count, three shapes: segments of odd byte counts with source and target strides that
 *     differ (and are not multiples of each other), counts that differ per level (some of 1), and wide
 *     segments with big gaps; each rank puts the section into its right neighbour's block and into its own,
 *     every target checks its whole area (the section's bytes and every byte between them untouched);
 *   - each rank reads its section back with ARMCI_GetS into a local buffer laid out like its source (the gaps
 *     keep their own background), and once more with a third layout;
 *   - a 2-level section of doubles out of a 100 x 100 matrix (a block of a distributed array, the benchmarks'
 *     case), put and got between matrices of different leading dimensions. */
#include "armci_test.h"

enum { AREA = 1 << 18 }; /* bytes per area (right neighbour's, own) */

/* A shape: levels, count[0..levels], source, target and third strides (made non-overlapping). */
typedef struct {
    int levels, count[ARMCI_MAX_STRIDE_LEVEL + 1];
    int src[ARMCI_MAX_STRIDE_LEVEL], dst[ARMCI_MAX_STRIDE_LEVEL], third[ARMCI_MAX_STRIDE_LEVEL];
} shape;

/* stride[0] = count[0] + gap0, stride[l] = stride[l-1] * count[l] + gap * l (gap 0: dense) */
static void make_strides(int *stride, const int *count, int levels, int gap0, int gap)
{
    for (int l = 0; l < levels; l++)
        stride[l] = (l == 0 ? count[0] + gap0 : stride[l - 1] * count[l] + gap * l);
}

static void make_shape(shape *s, int levels, int kind)
{
    s->levels = levels;
    for (int l = 1; l <= levels; l++)
        s->count[l] = kind == 1 ? (l % 3 == 0 ? 1 : l % 3 + 1) : 2 + (levels <= 4 && l == 1);
    if (kind == 0) {
        s->count[0] = 3 + 2 * (levels % 3); /* 3, 5, 7 bytes */
        make_strides(s->src, s->count, levels, 1, 3);
        make_strides(s->dst, s->count, levels, 4, 1);
        make_strides(s->third, s->count, levels, 2, 5);
    } else if (kind == 1) {
        s->count[0] = 8;
        make_strides(s->src, s->count, levels, 0, 0); /* a dense source */
        make_strides(s->dst, s->count, levels, 8, 0);
        make_strides(s->third, s->count, levels, 3, 7);
    } else {
        s->count[0] = levels <= 2 ? 200 : 40;
        make_strides(s->src, s->count, levels, 13, 50);
        make_strides(s->dst, s->count, levels, 100, 7);
        make_strides(s->third, s->count, levels, 1, 1);
    }
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    /* area 0: from the left neighbour, area 1: my own */
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, 2 * AREA));
    unsigned char *mine = ptr[rank], *src = mt_malloc(AREA), *exp = mt_malloc(AREA), *got = mt_malloc(AREA),
                  *ref = mt_malloc(AREA);
    char what[160];
    int cases = 0;

    for (int levels = 0; levels <= ARMCI_MAX_STRIDE_LEVEL; levels++)
        for (int kind = 0; kind < 3; kind++, cases++) {
            shape s;
            make_shape(&s, levels, kind);
            long se = at_extent(levels, s.count, s.src), de = at_extent(levels, s.count, s.dst),
                 te = at_extent(levels, s.count, s.third);
            if (se > AREA || de > AREA - 1 || te > AREA) {
                MT_ERR(errs, "test bug: shape %d/%d too big (%ld %ld %ld)", levels, kind, se, de, te);
                continue;
            }
            /* background of the target areas, the source pattern */
            for (long i = 0; i < de + 1; i++)
                mine[i] = mine[AREA + i] = (unsigned char)(i * 5 + cases);
            mt_fill(src, (size_t)se, rank, cases);
            ARMCI_Barrier();
            MT_CHECK_INT(errs, "ARMCI_PutS (right)", 0,
                         ARMCI_PutS(src, s.src, ptr[right], s.dst, s.count, levels, right));
            mt_fill(src, (size_t)se, rank, cases + 100);
            MT_CHECK_INT(errs, "ARMCI_PutS (self)", 0,
                         ARMCI_PutS(src, s.src, ptr[rank] + AREA, s.dst, s.count, levels, rank));
            ARMCI_Barrier();
            /* the reference: the background with the origin's source section copied in by plain loops */
            for (int a = 0; a < 2; a++) {
                for (long i = 0; i < de + 1; i++)
                    exp[i] = (unsigned char)(i * 5 + cases);
                mt_fill(ref, (size_t)se, a ? rank : left, cases + 100 * a);
                at_ref_copy(exp, s.dst, ref, s.src, s.count, levels);
                snprintf(what, sizeof what, "%d-level section (shape %d, %d-byte segments) put by %s", levels, kind,
                         s.count[0], a ? "myself" : "the left neighbour");
                AT_CMP(errs, what, exp, mine + (long)a * AREA, (size_t)de + 1);
            }
            /* read my section back from the right neighbour: into the source layout, then into the third one */
            for (long i = 0; i < se; i++)
                got[i] = (unsigned char)(i * 3 + 1);
            MT_CHECK_INT(errs, "ARMCI_GetS", 0, ARMCI_GetS(ptr[right], s.dst, got, s.src, s.count, levels, right));
            for (long i = 0; i < se; i++)
                exp[i] = (unsigned char)(i * 3 + 1);
            mt_fill(ref, (size_t)se, rank, cases);
            at_ref_copy(exp, s.src, ref, s.src, s.count, levels);
            snprintf(what, sizeof what, "%d-level section (shape %d) got back into the source layout", levels, kind);
            AT_CMP(errs, what, exp, got, (size_t)se);
            for (long i = 0; i < te; i++)
                got[i] = exp[i] = (unsigned char)(i * 7 + 2);
            MT_CHECK_INT(errs, "ARMCI_GetS (third layout)", 0,
                         ARMCI_GetS(ptr[rank] + AREA, s.dst, got, s.third, s.count, levels, rank));
            mt_fill(ref, (size_t)se, rank, cases + 100);
            at_ref_copy(exp, s.third, ref, s.src, s.count, levels);
            snprintf(what, sizeof what, "%d-level section (shape %d) got from myself into a third layout", levels,
                     kind);
            AT_CMP(errs, what, exp, got, (size_t)te);
            ARMCI_Barrier();
            if (kind == 2)
                at_migrate(); /* after each level */
        }

    /* ---- a 37 x 29 block of doubles: from a 100 x 100 matrix (ld 100) into the right one's (ld 61) ---- */
    {
        double *a = mt_malloc(sizeof(double) * 100 * 100), *b = (double *)mine, *c = mt_malloc(sizeof(double) * 100 * 100);
        for (int i = 0; i < 100 * 100; i++)
            a[i] = rank * 100000.0 + i;
        for (int i = 0; i < 61 * 40; i++)
            b[i] = -1;
        ARMCI_Barrier();
        int count[2] = {37 * (int)sizeof(double), 29}, sst[1] = {100 * sizeof(double)}, dstr[1] = {61 * sizeof(double)};
        MT_CHECK_INT(errs, "ARMCI_PutS (block of doubles)", 0,
                     ARMCI_PutS(a + 3 + 100 * 5, sst, ptr[right] + 2 * sizeof(double), dstr, count, 1, right));
        ARMCI_Barrier();
        int bad = 0;
        for (int j = 0; j < 40; j++)
            for (int i = 0; i < 61; i++) {
                double e = (i >= 2 && i < 39 && j < 29) ? left * 100000.0 + (i - 2 + 3) + 100 * (j + 5) : -1;
                if (b[i + 61 * j] != e && bad++ < 3)
                    MT_ERR(errs, "block of doubles at (%d, %d): expected %g, got %g", i, j, e, b[i + 61 * j]);
            }
        for (int i = 0; i < 100 * 100; i++)
            c[i] = -2;
        MT_CHECK_INT(errs, "ARMCI_GetS (block of doubles)", 0,
                     ARMCI_GetS(ptr[right] + 2 * sizeof(double), dstr, c + 7, sst, count, 1, right));
        for (int j = 0; j < 100; j++)
            for (int i = 0; i < 100; i++) {
                double e = (i >= 7 && i < 44 && j < 29) ? rank * 100000.0 + (i - 7 + 3) + 100 * (j + 5) : -2;
                if (c[i + 100 * j] != e && bad++ < 3)
                    MT_ERR(errs, "block of doubles got back at (%d, %d): expected %g, got %g", i, j, e, c[i + 100 * j]);
            }
        free(a);
        free(c);
    }

    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(src);
    free(exp);
    free(got);
    free(ref);
    return at_finish(errs);
}
