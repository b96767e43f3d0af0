/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4's info additions: MPI_Info_get_string (the whole value, cut to buflen - 1 characters and always
 * terminated, buflen set to the value's length + 1, a query with buflen 0 and no buffer, buflen left alone
 * for a key that is not set, errors for a negative buflen and a bad object), MPI_Info_create_env (the
 * environment's keys from the given arguments, a new writable object each time, independent of
 * MPI_INFO_ENV, argc 0 and NULL argv allowed), info calls before MPI_Init, and MPI_Comm_idup_with_info (the
 * new communicator's hints are exactly the given object's, or none with MPI_INFO_NULL; it is a working
 * duplicate, used for a reduction, while the given object may be freed at once). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, len;
    char v[64];
    MPI_Info pre;
    /* before MPI_Init (MPI-4.1 11.2.1) */
    MT_CHECK_RC(errs, MPI_Info_create(&pre));
    MT_CHECK_RC(errs, MPI_Info_set(pre, "made", "before init"));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    len = sizeof v;
    flag = 0;
    MT_CHECK_RC(errs, MPI_Info_get_string(pre, "made", &len, v, &flag));
    MT_CHECK(errs, flag && strcmp(v, "before init") == 0 && len == 12, "made before init: flag %d '%s' len %d", flag,
             flag ? v : "", len);

    /* get_string: whole, cut, query, missing */
    MPI_Info info;
    MT_CHECK_RC(errs, MPI_Info_create(&info));
    snprintf(v, sizeof v, "value of rank %d", rank);
    MT_CHECK_RC(errs, MPI_Info_set(info, "key", v));
    int vlen = (int)strlen(v);
    char out[64];
    len = 0;
    flag = 0;
    MT_CHECK_RC(errs, MPI_Info_get_string(info, "key", &len, NULL, &flag));
    MT_CHECK(errs, flag && len == vlen + 1, "query: flag %d len %d, expected %d", flag, len, vlen + 1);
    len = 6;
    memset(out, 'x', sizeof out);
    MT_CHECK_RC(errs, MPI_Info_get_string(info, "key", &len, out, &flag));
    MT_CHECK(errs, flag && len == vlen + 1 && strncmp(out, v, 5) == 0 && out[5] == '\0' && out[6] == 'x',
             "cut to 5: '%.8s' len %d", out, len);
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(info, "key", &len, out, &flag));
    MT_CHECK(errs, flag && len == vlen + 1 && strcmp(out, v) == 0, "whole: '%s' len %d", out, len);
    len = 17;
    flag = 1;
    MT_CHECK_RC(errs, MPI_Info_get_string(info, "nokey", &len, out, &flag));
    MT_CHECK(errs, !flag && len == 17, "missing key: flag %d len %d (buflen must stay 17)", flag, len);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    len = -1;
    MT_CHECK_CLASS(errs, MPI_Info_get_string(info, "key", &len, out, &flag), MPI_ERR_ARG);
    len = sizeof out;
    MT_CHECK_CLASS(errs, MPI_Info_get_string(MPI_INFO_NULL, "key", &len, out, &flag), MPI_ERR_INFO);
    MT_CHECK_CLASS(errs, MPI_Info_create_env(-1, NULL, &pre), MPI_ERR_ARG);

    /* create_env: the environment's keys, the given arguments, a new writable object */
    char *args[] = {"prog", "-x", "1", NULL};
    MPI_Info e1, e2;
    MT_CHECK_RC(errs, MPI_Info_create_env(3, args, &e1));
    MT_CHECK_RC(errs, MPI_Info_create_env(0, NULL, &e2));
    MT_CHECK(errs, e1 != e2 && e1 != MPI_INFO_ENV, "create_env gave the same handle twice or MPI_INFO_ENV");
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(e1, "command", &len, out, &flag));
    MT_CHECK(errs, flag && strcmp(out, "prog") == 0, "command: '%s'", flag ? out : "(none)");
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(e1, "argv", &len, out, &flag));
    MT_CHECK(errs, flag && strcmp(out, "-x 1") == 0, "argv: '%s'", flag ? out : "(none)");
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(e2, "command", &len, out, &flag));
    MT_CHECK(errs, !flag, "argc 0: a command key '%s'", out);
    const char *keys[] = {"maxprocs", "wdir", "host", "arch", "thread_level"};
    for (int i = 0; i < 5; i++) {
        char envv[256];
        int ef = 0;
        len = sizeof out;
        MT_CHECK_RC(errs, MPI_Info_get_string(e2, keys[i], &len, out, &flag));
        MT_CHECK_RC(errs, MPI_Info_get(MPI_INFO_ENV, keys[i], sizeof envv - 1, envv, &ef));
        MT_CHECK(errs, flag && ef && strcmp(out, envv) == 0, "key %s: '%s', MPI_INFO_ENV's '%s'", keys[i],
                 flag ? out : "(none)", ef ? envv : "(none)");
    }
    snprintf(v, sizeof v, "%d", size);
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(e2, "maxprocs", &len, out, &flag));
    MT_CHECK(errs, flag && strcmp(out, v) == 0, "maxprocs '%s', expected %s", out, v);
    MT_CHECK_RC(errs, MPI_Info_set(e1, "mine", "yes")); /* writable, unlike MPI_INFO_ENV */
    MT_CHECK_RC(errs, MPI_Info_get_valuelen(MPI_INFO_ENV, "mine", &len, &flag));
    MT_CHECK(errs, !flag, "a key set in create_env's object appeared in MPI_INFO_ENV");
    MT_CHECK_RC(errs, MPI_Info_free(&e1));
    MT_CHECK_RC(errs, MPI_Info_free(&e2));

    /* Comm_idup_with_info */
    MPI_Comm dup, dup0;
    MPI_Request req[2];
    MT_CHECK_RC(errs, MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MT_CHECK_RC(errs, MPI_Comm_set_info(MPI_COMM_WORLD, info)); /* the parent's hints must not be copied */
    MPI_Info given;
    MT_CHECK_RC(errs, MPI_Info_create(&given));
    MT_CHECK_RC(errs, MPI_Info_set(given, "vmpi_test_hint", "given"));
    MT_CHECK_RC(errs, MPI_Comm_idup_with_info(MPI_COMM_WORLD, given, &dup, &req[0]));
    MT_CHECK_RC(errs, MPI_Info_free(&given)); /* (the call took a copy) */
    MT_CHECK_RC(errs, MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup0, &req[1]));
    MT_CHECK_RC(errs, MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    MPI_Info got;
    MT_CHECK_RC(errs, MPI_Comm_get_info(dup, &got));
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(got, "vmpi_test_hint", &len, out, &flag));
    MT_CHECK(errs, flag && strcmp(out, "given") == 0, "dup's hint: '%s'", flag ? out : "(none)");
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(got, "key", &len, out, &flag));
    MT_CHECK(errs, !flag, "dup took the parent's hint 'key'");
    MT_CHECK_RC(errs, MPI_Info_free(&got));
    MT_CHECK_RC(errs, MPI_Comm_get_info(dup0, &got));
    len = sizeof out;
    MT_CHECK_RC(errs, MPI_Info_get_string(got, "vmpi_test_hint", &len, out, &flag));
    MT_CHECK(errs, !flag, "MPI_INFO_NULL's dup has hint '%s'", out);
    MT_CHECK_RC(errs, MPI_Info_free(&got));
    int r = -1, sum = -1;
    MT_CHECK_RC(errs, MPI_Comm_rank(dup, &r));
    MT_CHECK_RC(errs, MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, dup));
    MT_CHECK(errs, r == rank && sum == size * (size - 1) / 2, "on the dup: rank %d sum %d", r, sum);
    MT_CHECK_CLASS(errs, MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, NULL, &req[0]), MPI_ERR_ARG);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&dup0);
    MPI_Info_free(&info);
    MPI_Info_free(&pre);
    return mt_finish(errs);
}
