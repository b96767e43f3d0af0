/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue of the AMPI extensions (mpi_ampi.h), named as AMPI's Fortran programs call them
 * (CALL AMPI_MIGRATE(HINTS, IERROR)): they are not in the standard's data, so they are written here. */
#include "fortran/f77.h"

F77(ampi_migrate, (MPI_Fint * hints, MPI_Fint *ierror)) { *ierror = AMPI_Migrate(*hints); }
F77(ampi_migrate_to_pe, (MPI_Fint * pe, MPI_Fint *ierror)) { *ierror = AMPI_Migrate_to_pe(*pe); }
F77(ampi_set_migratable, (MPI_Fint * mig, MPI_Fint *ierror)) { *ierror = AMPI_Set_migratable(*mig); }
/* a procedure argument is the procedure's address; the subroutines take no arguments, as MPI_MigrateFn */
F77(ampi_register_about_to_migrate, (MPI_MigrateFn fn, MPI_Fint *ierror))
{
    *ierror = AMPI_Register_about_to_migrate(fn);
}
F77(ampi_register_just_migrated, (MPI_MigrateFn fn, MPI_Fint *ierror)) { *ierror = AMPI_Register_just_migrated(fn); }
F77(ampi_load_start_measure, (MPI_Fint * ierror)) { *ierror = AMPI_Load_start_measure(); }
F77(ampi_load_stop_measure, (MPI_Fint * ierror)) { *ierror = AMPI_Load_stop_measure(); }
F77(ampi_load_reset_measure, (MPI_Fint * ierror)) { *ierror = AMPI_Load_reset_measure(); }
F77(ampi_load_set_value, (double *value, MPI_Fint *ierror)) { *ierror = AMPI_Load_set_value(*value); }
F77(ampi_yield, (MPI_Fint * ierror)) { *ierror = AMPI_Yield(); }
/* vmpi's: FLAG (an INTEGER, as C's int) is 1 in a job restarted from the checkpoint the last AMPI_MIGRATE took */
F77(vmpix_restarted, (MPI_Fint * flag, MPI_Fint *ierror))
{
    int f = 0;
    *ierror = VMPIX_Restarted(&f);
    *flag = f;
}
