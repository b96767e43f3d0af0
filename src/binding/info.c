/* SPDX-License-Identifier: BSD-3-Clause */
/* Info objects: the implementations behind the generated entry points (<build>/gen/binding/info_entry.c, from
 * src/binding/spec/info.toml), which check the arguments (keys and values within MPI's lengths, the object
 * valid, and writable where it is changed) and report the errors these return (on MPI_COMM_WORLD: no
 * communicator is involved).  MPI-4 allows them before MPI_Init and after MPI_Finalize too. */
#include "binding/impl.h"

int vmpi_b_Info_create(MPI_Info *info) { return vmpi_info_create(info); }

int vmpi_b_Info_set(MPI_Info info, const char *key, const char *value) { return vmpi_info_set(info, key, value); }

int vmpi_b_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    return vmpi_info_get(info, key, valuelen, value, flag);
}

int vmpi_b_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    return vmpi_info_get_valuelen(info, key, valuelen, flag);
}

int vmpi_b_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    return vmpi_info_get_string(info, key, buflen, value, flag);
}

int vmpi_b_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    return vmpi_info_create_env(argv ? argc : 0, argv, info);
}

int vmpi_b_Info_delete(MPI_Info info, const char *key, vmpi_chk *ck)
{
    int err = vmpi_info_delete(info, key);
    if (err == MPI_ERR_INFO_NOKEY)
        snprintf(ck->why, sizeof ck->why, "key \"%.100s\" is not set", key);
    return err;
}

int vmpi_b_Info_get_nkeys(MPI_Info info, int *nkeys) { return vmpi_info_get_nkeys(info, nkeys); }

int vmpi_b_Info_get_nthkey(MPI_Info info, int n, char *key, vmpi_chk *ck)
{
    int err = vmpi_info_get_nthkey(info, n, key);
    if (err == MPI_ERR_ARG)
        snprintf(ck->why, sizeof ck->why, "n = %d is not in [0, number of keys)", n);
    return err;
}

int vmpi_b_Info_dup(MPI_Info info, MPI_Info *newinfo) { return vmpi_info_dup(info, newinfo); }

int vmpi_b_Info_free(MPI_Info *info) { return vmpi_info_free(info); }
