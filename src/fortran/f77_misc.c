/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue the generator cannot derive: MPI_PCONTROL (C's is variadic), MPI_F_SYNC_REG (Fortran only) and
 * the info values whose length
 * the program gives (C writes as much as asked; a CHARACTER has its own length); the conversions of mpi_f08's
 * status type. */
#include <stdlib.h>
#include "fortran/f77.h"

F77(mpi_pcontrol, (MPI_Fint * level, MPI_Fint *ierror))
{
    *ierror = PMPI_Pcontrol(*level);
}

/* MPI_F_SYNC_REG(BUF) (MPI-4.1 19.1.17): nothing; being an external procedure that takes BUF, a call makes the
 * compiler store BUF before it and load it after (a register copy is not what an MPI_BOTTOM-based transfer or
 * a nonblocking one finishing reads or writes).  The modules call it through an interface that passes the
 * address (emit_fmod.sync_reg_interface). */
F77(mpi_f_sync_reg, (void *buf))
{
    (void)buf;
}

/* VALUELEN beyond the CHARACTER's length is the CHARACTER's length */
F77(mpi_info_get, (MPI_Fint * info, char *key, MPI_Fint *valuelen, char *value, MPI_Fint *flag, MPI_Fint *ierror,
                   size_t key_len, size_t value_len))
{
    char *k = vmpi_f_str_in_info(key, key_len), *v = vmpi_f_str_room(value_len);
    int len = *valuelen < 0 || (size_t)*valuelen <= value_len ? *valuelen : (int)value_len;
    int found = 0;
    int rc = PMPI_Info_get(*info, k, len, v, &found);
    *flag = found != 0;
    vmpi_f_str_out(found ? v : NULL, value, value_len, rc);
    if (!found)
        free(v);
    vmpi_f_str_free(k);
    *ierror = rc;
}

/* BUFLEN: in, how many characters of VALUE to fill (0: VALUE untouched), the rest blank; out, the value's
 * length (Fortran has no terminator) */
F77(mpi_info_get_string, (MPI_Fint * info, char *key, MPI_Fint *buflen, char *value, MPI_Fint *flag,
                          MPI_Fint *ierror, size_t key_len, size_t value_len))
{
    char *k = vmpi_f_str_in_info(key, key_len);
    int need = 0, found = 0;
    int rc = PMPI_Info_get_string(*info, k, &need, NULL, &found);
    if (rc == MPI_SUCCESS && found && *buflen > 0) {
        char *v = malloc((size_t)need);
        if (v == NULL)
            rc = MPI_ERR_NO_MEM;
        else if ((rc = PMPI_Info_get_string(*info, k, &need, v, &found)) == MPI_SUCCESS) {
            size_t n = strlen(v);
            if (n > (size_t)*buflen)
                n = (size_t)*buflen;
            if (n > value_len)
                n = value_len;
            memcpy(value, v, n);
            memset(value + n, ' ', value_len - n);
        }
        free(v);
    }
    if (rc == MPI_SUCCESS && found)
        *buflen = need - 1;
    *flag = found != 0;
    vmpi_f_str_free(k);
    *ierror = rc;
}

/* mpi_f08's TYPE(MPI_Status) <-> the INTEGER array: the glue takes the TYPE as the C struct it is
 * (MPI_F08_status); mpi_f08 calls it directly, without IERROR when the program omits it. */
F77(mpi_status_f2f08, (MPI_Fint * f_status, MPI_F08_status *f08_status, MPI_Fint *ierror))
{
    int rc = PMPI_Status_f2f08(f_status, f08_status);
    if (ierror)
        *ierror = rc;
}

F77(mpi_status_f082f, (MPI_F08_status * f08_status, MPI_Fint *f_status, MPI_Fint *ierror))
{
    int rc = PMPI_Status_f082f(f08_status, f_status);
    if (ierror)
        *ierror = rc;
}
