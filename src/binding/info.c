/* SPDX-License-Identifier: BSD-3-Clause */
/* Info object entry points.  Errors are raised on MPI_COMM_WORLD (no communicator is involved).  MPI-4 allows
 * them at any time, before MPI_Init and after MPI_Finalize too (MPI-4.1 11.2.1): a rank's call is enough
 * (vmpi_chk_in_rank). */
#include "binding/check.h"

#define FAIL(fn) vmpi_fail(MPI_COMM_WORLD, err, "MPI_" #fn, &ck)

VMPI_WEAK(Info_create)
int PMPI_Info_create(MPI_Info *info)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_ptr(&ck, info, "info")) || (err = vmpi_info_create(info)))
        return FAIL(Info_create);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info_writable(&ck, info)) ||
        (err = vmpi_chk_info_key(&ck, key)) || (err = vmpi_chk_info_value(&ck, value)) ||
        (err = vmpi_info_set(info, key, value)))
        return FAIL(Info_set);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    VMPI_CHK(ck);
    int err;
    if (valuelen < 0) {
        snprintf(ck.why, sizeof ck.why, "negative valuelen %d", valuelen);
        err = MPI_ERR_ARG;
        return FAIL(Info_get);
    }
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) || (err = vmpi_chk_info_key(&ck, key)) ||
        (err = vmpi_chk_ptr(&ck, value, "value")) || (err = vmpi_chk_ptr(&ck, flag, "flag")) ||
        (err = vmpi_info_get(info, key, valuelen, value, flag)))
        return FAIL(Info_get);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) || (err = vmpi_chk_info_key(&ck, key)) ||
        (err = vmpi_chk_ptr(&ck, valuelen, "valuelen")) || (err = vmpi_chk_ptr(&ck, flag, "flag")) ||
        (err = vmpi_info_get_valuelen(info, key, valuelen, flag)))
        return FAIL(Info_get_valuelen);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info_writable(&ck, info)) ||
        (err = vmpi_chk_info_key(&ck, key)))
        return FAIL(Info_delete);
    if ((err = vmpi_info_delete(info, key))) {
        if (err == MPI_ERR_INFO_NOKEY)
            snprintf(ck.why, sizeof ck.why, "key \"%.100s\" is not set", key);
        return FAIL(Info_delete);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) ||
        (err = vmpi_chk_ptr(&ck, nkeys, "nkeys")) || (err = vmpi_info_get_nkeys(info, nkeys)))
        return FAIL(Info_get_nkeys);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) || (err = vmpi_chk_ptr(&ck, key, "key")))
        return FAIL(Info_get_nthkey);
    if ((err = vmpi_info_get_nthkey(info, n, key))) {
        if (err == MPI_ERR_ARG)
            snprintf(ck.why, sizeof ck.why, "n = %d is not in [0, number of keys)", n);
        return FAIL(Info_get_nthkey);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) ||
        (err = vmpi_chk_ptr(&ck, newinfo, "newinfo")) || (err = vmpi_info_dup(info, newinfo)))
        return FAIL(Info_dup);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_free)
int PMPI_Info_free(MPI_Info *info)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_ptr(&ck, info, "info")) ||
        (err = vmpi_chk_info_writable(&ck, *info)) || (err = vmpi_info_free(info)))
        return FAIL(Info_free);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_info(&ck, info)) || (err = vmpi_chk_info_key(&ck, key)) ||
        (err = vmpi_chk_ptr(&ck, buflen, "buflen")) || (err = vmpi_chk_ptr(&ck, flag, "flag")))
        return FAIL(Info_get_string);
    if (*buflen < 0) {
        snprintf(ck.why, sizeof ck.why, "negative buflen %d", *buflen);
        err = MPI_ERR_ARG;
        return FAIL(Info_get_string);
    }
    if ((*buflen > 0 && (err = vmpi_chk_ptr(&ck, value, "value"))) ||
        (err = vmpi_info_get_string(info, key, buflen, value, flag)))
        return FAIL(Info_get_string);
    return MPI_SUCCESS;
}

VMPI_WEAK(Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    VMPI_CHK(ck);
    int err;
    if (argc < 0) {
        snprintf(ck.why, sizeof ck.why, "negative argc %d", argc);
        err = MPI_ERR_ARG;
        return FAIL(Info_create_env);
    }
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_ptr(&ck, info, "info")) ||
        (err = vmpi_info_create_env(argv ? argc : 0, argv, info)))
        return FAIL(Info_create_env);
    return MPI_SUCCESS;
}
