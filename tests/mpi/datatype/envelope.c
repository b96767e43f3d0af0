/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Type_get_envelope / get_contents give back, for every combiner, exactly the arguments the type was
 * built with; a derived component comes back as a handle that describes the same type and can be freed;
 * predefined types are MPI_COMBINER_NAMED.  Type names: predefined names, set/get on derived types, dup
 * does not copy the name. */
#include "mtest.h"

typedef struct env {
    int ni, na, nd, combiner;
    int ints[32];
    MPI_Aint aints[8];
    MPI_Datatype types[4];
} env;

static int check_env(const char *what, MPI_Datatype dt, const env *w)
{
    int errs = 0, ni, na, nd, comb;
    MPI_Type_get_envelope(dt, &ni, &na, &nd, &comb);
    MT_CHECK(errs, ni == w->ni && na == w->na && nd == w->nd && comb == w->combiner,
             "%s: envelope (%d, %d, %d, combiner %d), expected (%d, %d, %d, %d)", what, ni, na, nd, comb, w->ni,
             w->na, w->nd, w->combiner);
    if (errs)
        return errs;
    int ints[32];
    MPI_Aint aints[8];
    MPI_Datatype types[4];
    MT_CHECK_RC(errs, MPI_Type_get_contents(dt, 32, 8, 4, ints, aints, types));
    for (int i = 0; i < ni; i++)
        MT_CHECK(errs, ints[i] == w->ints[i], "%s: integer %d is %d, expected %d", what, i, ints[i], w->ints[i]);
    for (int i = 0; i < na; i++)
        MT_CHECK(errs, aints[i] == w->aints[i], "%s: address %d is %ld, expected %ld", what, i, (long)aints[i],
                 (long)w->aints[i]);
    for (int i = 0; i < nd; i++) {
        int wc, wn, wa, wd, gc, gn, ga, gd;
        MPI_Type_get_envelope(w->types[i], &wn, &wa, &wd, &wc);
        MPI_Type_get_envelope(types[i], &gn, &ga, &gd, &gc);
        if (wc == MPI_COMBINER_NAMED) {
            MT_CHECK(errs, types[i] == w->types[i], "%s: datatype %d is not the predefined one given", what, i);
        } else {
            MPI_Aint l1, e1, l2, e2;
            MPI_Type_get_extent(types[i], &l1, &e1);
            MPI_Type_get_extent(w->types[i], &l2, &e2);
            MT_CHECK(errs, gc == wc && gn == wn && l1 == l2 && e1 == e2,
                     "%s: derived datatype %d comes back as combiner %d extent %ld, expected %d %ld", what, i, gc,
                     (long)e1, wc, (long)e2);
            MT_CHECK_RC(errs, MPI_Type_free(&types[i]));
        }
    }
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0;
    MPI_Init(&argc, &argv);

    int ni, na, nd, comb;
    MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
    MT_CHECK(errs, comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "MPI_DOUBLE: combiner %d", comb);
    MPI_Type_get_envelope(MPI_2INT, &ni, &na, &nd, &comb);
    MT_CHECK(errs, comb == MPI_COMBINER_NAMED, "MPI_2INT: combiner %d, expected MPI_COMBINER_NAMED", comb);

    MPI_Datatype t;
    MPI_Type_contiguous(5, MPI_INT, &t);
    errs += check_env("contiguous", t, &(env){1, 0, 1, MPI_COMBINER_CONTIGUOUS, {5}, {0}, {MPI_INT}});
    MPI_Datatype contig = t;

    MPI_Type_vector(3, 2, -4, contig, &t);
    errs += check_env("vector", t, &(env){3, 0, 1, MPI_COMBINER_VECTOR, {3, 2, -4}, {0}, {contig}});
    MPI_Type_free(&t);

    MPI_Type_create_hvector(4, 1, 100, MPI_DOUBLE, &t);
    errs += check_env("hvector", t, &(env){2, 1, 1, MPI_COMBINER_HVECTOR, {4, 1}, {100}, {MPI_DOUBLE}});
    MPI_Type_free(&t);

    {
        int bl[3] = {1, 0, 2}, dp[3] = {7, 3, -1};
        MPI_Type_indexed(3, bl, dp, MPI_SHORT, &t);
        errs += check_env("indexed", t, &(env){7, 0, 1, MPI_COMBINER_INDEXED, {3, 1, 0, 2, 7, 3, -1}, {0},
                                               {MPI_SHORT}});
        MPI_Type_free(&t);
        MPI_Aint adp[3] = {56, 8, -16};
        MPI_Type_create_hindexed(3, bl, adp, contig, &t);
        errs += check_env("hindexed", t, &(env){4, 3, 1, MPI_COMBINER_HINDEXED, {3, 1, 0, 2}, {56, 8, -16},
                                                {contig}});
        MPI_Type_free(&t);
        MPI_Type_create_indexed_block(3, 4, dp, MPI_CHAR, &t);
        errs += check_env("indexed_block", t, &(env){5, 0, 1, MPI_COMBINER_INDEXED_BLOCK, {3, 4, 7, 3, -1}, {0},
                                                     {MPI_CHAR}});
        MPI_Type_free(&t);
        MPI_Type_create_hindexed_block(3, 2, adp, MPI_FLOAT, &t);
        errs += check_env("hindexed_block", t, &(env){2, 3, 1, MPI_COMBINER_HINDEXED_BLOCK, {3, 2}, {56, 8, -16},
                                                      {MPI_FLOAT}});
        MPI_Type_free(&t);
        MPI_Datatype ty[3] = {MPI_INT, contig, MPI_UB};
        MPI_Type_create_struct(3, bl, adp, ty, &t);
        errs += check_env("struct", t, &(env){4, 3, 3, MPI_COMBINER_STRUCT, {3, 1, 0, 2}, {56, 8, -16},
                                              {MPI_INT, contig, MPI_UB}});
        MPI_Type_free(&t);
    }
    {
        int sizes[3] = {4, 5, 6}, sub[3] = {2, 3, 4}, st[3] = {1, 2, 0};
        MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t);
        errs += check_env("subarray", t, &(env){11, 0, 1, MPI_COMBINER_SUBARRAY,
                                                {3, 4, 5, 6, 2, 3, 4, 1, 2, 0, MPI_ORDER_FORTRAN}, {0},
                                                {MPI_DOUBLE}});
        MPI_Type_free(&t);
        int gs[2] = {10, 7}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        int darg[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {3, 2};
        MPI_Type_create_darray(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, contig, &t);
        errs += check_env("darray", t, &(env){12, 0, 1, MPI_COMBINER_DARRAY,
                                              {6, 4, 2, 10, 7, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, 2,
                                               MPI_DISTRIBUTE_DFLT_DARG, 3, 2, MPI_ORDER_C},
                                              {0}, {contig}});
        MPI_Type_free(&t);
    }
    MPI_Type_create_resized(contig, -3, 41, &t);
    errs += check_env("resized", t, &(env){0, 2, 1, MPI_COMBINER_RESIZED, {0}, {-3, 41}, {contig}});
    MPI_Type_free(&t);
    MPI_Type_dup(contig, &t);
    errs += check_env("dup", t, &(env){0, 0, 1, MPI_COMBINER_DUP, {0}, {0}, {contig}});

    /* contents outlive the component's handle: free contig, then decode the dup and use the result */
    MPI_Datatype dup = t;
    MPI_Type_free(&contig);
    MPI_Datatype inner;
    MT_CHECK_RC(errs, MPI_Type_get_contents(dup, 0, 0, 1, NULL, NULL, &inner));
    int sz = 0;
    MPI_Type_size(inner, &sz);
    MT_CHECK_INT(errs, "size of the decoded component after its handle was freed", 20, sz);
    MPI_Type_get_envelope(inner, &ni, &na, &nd, &comb);
    MT_CHECK_INT(errs, "combiner of the decoded component", MPI_COMBINER_CONTIGUOUS, comb);
    MPI_Type_free(&inner);

    /* addresses */
    {
        double arr[4];
        MPI_Aint a0, a3;
        MPI_Get_address(&arr[0], &a0);
        MPI_Get_address(&arr[3], &a3);
        MT_CHECK_INT(errs, "Aint_diff of &arr[3] and &arr[0]", 3 * (long)sizeof(double), MPI_Aint_diff(a3, a0));
        MT_CHECK(errs, MPI_Aint_add(a0, 3 * (MPI_Aint)sizeof(double)) == a3, "Aint_add(&arr[0], 24) is not &arr[3]");
        MT_CHECK(errs, (char *)MPI_Aint_add((MPI_Aint)MPI_BOTTOM, a3) == (char *)&arr[3],
                 "Aint_add(MPI_BOTTOM, address) is not the location");
    }

    /* names */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_INT, name, &len);
    MT_CHECK(errs, strcmp(name, "MPI_INT") == 0 && len == 7, "name of MPI_INT is \"%s\" (%d)", name, len);
    MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
    MT_CHECK(errs, strcmp(name, "MPI_DOUBLE_INT") == 0, "name of MPI_DOUBLE_INT is \"%s\"", name);
    MPI_Type_get_name(dup, name, &len);
    MT_CHECK(errs, len == 0 && name[0] == '\0', "a new type's name is \"%s\" (%d), expected empty", name, len);
    MPI_Type_set_name(dup, "my dup type");
    MPI_Type_get_name(dup, name, &len);
    MT_CHECK(errs, strcmp(name, "my dup type") == 0 && len == 11, "set name reads back as \"%s\" (%d)", name, len);
    MPI_Datatype dup2;
    MPI_Type_dup(dup, &dup2);
    MPI_Type_get_name(dup2, name, &len);
    MT_CHECK(errs, len == 0, "a dup's name is \"%s\", expected empty (names are not copied)", name);
    MPI_Type_free(&dup2);
    MPI_Type_free(&dup);
    return mt_finish(errs);
}
