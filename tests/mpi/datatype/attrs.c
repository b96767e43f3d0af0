/* SPDX-License-Identifier: BSD-3-Clause */
/* Attributes on datatypes: Type_dup runs the copy callbacks (MPI_TYPE_DUP_FN copies, a counting callback
 * sees the old type), Type_free runs the delete callbacks of the freed type only, a failing copy callback
 * fails Type_dup with its code and returns MPI_DATATYPE_NULL. */
#include "mtest.h"

typedef struct counts {
    int copies, deletes;
} counts;

static int count_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
    ((counts *)extra)->copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    ((counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
    *flag = 0;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    int errs = 0, flag;
    MPI_Init(&argc, &argv);
    counts c = {0, 0};
    int kdup, kcount, kfail;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kdup, NULL);
    MPI_Type_create_keyval(count_copy, count_delete, &kcount, &c);
    MPI_Datatype vec, d;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_set_attr(vec, kdup, &c);
    MPI_Type_set_attr(vec, kcount, &c);
    MPI_Type_dup(vec, &d);
    void *v;
    MPI_Type_get_attr(d, kdup, &v, &flag);
    if (!flag || v != &c)
        MT_ERR(errs, "MPI_TYPE_DUP_FN did not copy");
    if (c.copies != 1)
        MT_ERR(errs, "copy callback ran %d times", c.copies);
    MPI_Type_free(&d);
    if (c.deletes != 1)
        MT_ERR(errs, "Type_free ran %d delete callbacks", c.deletes);
    MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &kfail, NULL);
    MPI_Type_set_attr(vec, kfail, &c);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    d = MPI_INT;
    if (MPI_Type_dup(vec, &d) != MPI_ERR_OTHER || d != MPI_DATATYPE_NULL)
        MT_ERR(errs, "a failing copy callback did not fail Type_dup");
    MPI_Type_delete_attr(vec, kfail);
    c.deletes = 0;
    MPI_Type_free(&vec);
    if (c.deletes != 1)
        MT_ERR(errs, "freeing the original ran %d delete callbacks", c.deletes);
    MPI_Type_free_keyval(&kdup);
    MPI_Type_free_keyval(&kcount);
    MPI_Type_free_keyval(&kfail);
    return mt_finish(errs);
}
