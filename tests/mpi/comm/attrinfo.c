/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators with cached attributes and hints:
 *   - Comm_dup runs copy callbacks (MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not, a counting one
 *     sees the old communicator and its value); Comm_free runs the delete callbacks of the duplicate only;
 *   - a copy callback that fails makes Comm_dup fail with its code (MPI_ERRORS_RETURN) and leaves no
 *     communicator behind;
 *   - hints: Comm_set_info then Comm_get_info returns them; Comm_dup keeps them; Comm_dup_with_info takes
 *     the given ones (MPI_INFO_NULL: none); a new communicator from Comm_split has none. */
#include "mtest.h"

typedef struct counts {
    int copies, deletes;
    MPI_Comm last_old;
} counts;

static int count_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    counts *c = extra;
    c->copies++;
    c->last_old = old;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    ((counts *)extra)->deletes++;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    *flag = 0;
    return MPI_ERR_OTHER;
}

static int has_hint(MPI_Comm c, const char *key, const char *want)
{
    MPI_Info info;
    char v[64];
    int flag = 0;
    MPI_Comm_get_info(c, &info);
    MPI_Info_get(info, key, sizeof v - 1, v, &flag);
    MPI_Info_free(&info);
    return want ? flag && strcmp(v, want) == 0 : !flag;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    counts cnt = {0, 0, MPI_COMM_NULL};
    int kdup, knull, kcount;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL);
    MPI_Comm_create_keyval(count_copy, count_delete, &kcount, &cnt);
    MPI_Comm base;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    char *p = (char *)&cnt;
    MPI_Comm_set_attr(base, kdup, p);
    MPI_Comm_set_attr(base, knull, p);
    MPI_Comm_set_attr(base, kcount, p);
    MPI_Comm d;
    MPI_Comm_dup(base, &d);
    void *v;
    MPI_Comm_get_attr(d, kdup, &v, &flag);
    if (!flag || v != p)
        MT_ERR(errs, "MPI_COMM_DUP_FN did not copy the value");
    MPI_Comm_get_attr(d, knull, &v, &flag);
    if (flag)
        MT_ERR(errs, "MPI_COMM_NULL_COPY_FN copied the value");
    MPI_Comm_get_attr(d, kcount, &v, &flag);
    if (!flag || v != p + 1 || cnt.copies != 1 || cnt.last_old != base)
        MT_ERR(errs, "counting copy: flag %d value ok %d copies %d old ok %d", flag, v == p + 1, cnt.copies,
               cnt.last_old == base);
    MPI_Comm_free(&d);
    if (cnt.deletes != 1)
        MT_ERR(errs, "Comm_free ran %d delete callbacks, expected 1", cnt.deletes);

    /* a failing copy callback fails the dup */
    int kfail;
    MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &kfail, NULL);
    MPI_Comm_set_attr(base, kfail, p);
    MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);
    MPI_Comm bad = MPI_COMM_WORLD;
    int rc = MPI_Comm_dup(base, &bad);
    if (rc != MPI_ERR_OTHER || bad != MPI_COMM_NULL)
        MT_ERR(errs, "dup with a failing copy callback returned %d (comm null: %d)", rc, bad == MPI_COMM_NULL);
    MPI_Comm_delete_attr(base, kfail);

    /* hints */
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "vmpi_test_hint", "yes");
    MPI_Comm_set_info(base, hints);
    MPI_Info_free(&hints);
    if (!has_hint(base, "vmpi_test_hint", "yes"))
        MT_ERR(errs, "Comm_get_info lost the hint set");
    MPI_Comm_dup(base, &d);
    if (!has_hint(d, "vmpi_test_hint", "yes"))
        MT_ERR(errs, "Comm_dup did not keep the hints");
    MPI_Comm_free(&d);
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "other", "1");
    MPI_Comm_dup_with_info(base, hints, &d);
    MPI_Info_free(&hints);
    if (!has_hint(d, "other", "1") || !has_hint(d, "vmpi_test_hint", NULL))
        MT_ERR(errs, "Comm_dup_with_info did not take the given hints only");
    MPI_Comm_free(&d);
    MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &d);
    if (!has_hint(d, "vmpi_test_hint", NULL))
        MT_ERR(errs, "Comm_dup_with_info(MPI_INFO_NULL) kept hints");
    MPI_Comm_free(&d);
    MPI_Comm_split(base, 0, rank, &d);
    if (!has_hint(d, "vmpi_test_hint", NULL))
        MT_ERR(errs, "Comm_split passed hints on");
    MPI_Comm_get_attr(d, kdup, &v, &flag);
    if (flag)
        MT_ERR(errs, "Comm_split copied attributes");
    MPI_Comm_free(&d);

    cnt.deletes = 0;
    MPI_Comm_free(&base);
    if (cnt.deletes != 1)
        MT_ERR(errs, "freeing the base ran %d delete callbacks", cnt.deletes);
    MPI_Comm_free_keyval(&kdup);
    MPI_Comm_free_keyval(&knull);
    MPI_Comm_free_keyval(&kcount);
    MPI_Comm_free_keyval(&kfail);
    return mt_finish(errs);
}
