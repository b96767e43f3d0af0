/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Get_version (4.1 for vmpi; equal to MPI_VERSION.MPI_SUBVERSION everywhere), MPI_Get_library_version
 * and MPI_Get_processor_name (nonempty, resultlen == strlen, within the maximum length). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, v = -1, sv = -1, len = -1;

    MPI_Init(&argc, &argv);
    MT_CHECK_RC(errs, MPI_Get_version(&v, &sv));
    MT_CHECK(errs, v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version %d.%d, header says %d.%d", v, sv,
             MPI_VERSION, MPI_SUBVERSION);
#ifdef VMPI
    MT_CHECK(errs, v == 4 && sv == 1, "vmpi must report MPI 4.1, got %d.%d", v, sv);
#endif
    MT_CHECK(errs, v >= 3, "MPI version %d.%d is older than 3", v, sv);

    char *lib = mt_malloc(MPI_MAX_LIBRARY_VERSION_STRING + 16);
    memset(lib, 'X', MPI_MAX_LIBRARY_VERSION_STRING + 16);
    MT_CHECK_RC(errs, MPI_Get_library_version(lib, &len));
    lib[MPI_MAX_LIBRARY_VERSION_STRING + 15] = '\0';
    size_t slen = strlen(lib);
    MT_CHECK(errs, len > 0, "Get_library_version resultlen %d", len);
    MT_CHECK(errs, slen < MPI_MAX_LIBRARY_VERSION_STRING, "library version string not terminated in bounds");
    MT_CHECK(errs, (size_t)len == slen, "Get_library_version resultlen %d but strlen %zu", len, slen);
    free(lib);

    char *name = mt_malloc(MPI_MAX_PROCESSOR_NAME + 16);
    memset(name, 'X', MPI_MAX_PROCESSOR_NAME + 16);
    len = -1;
    MT_CHECK_RC(errs, MPI_Get_processor_name(name, &len));
    name[MPI_MAX_PROCESSOR_NAME + 15] = '\0';
    slen = strlen(name);
    MT_CHECK(errs, len > 0, "Get_processor_name resultlen %d", len);
    MT_CHECK(errs, slen < MPI_MAX_PROCESSOR_NAME, "processor name not terminated in bounds");
    MT_CHECK(errs, (size_t)len == slen, "Get_processor_name resultlen %d but strlen %zu", len, slen);
    free(name);

    return mt_finish(errs);
}
