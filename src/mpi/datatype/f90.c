/* SPDX-License-Identifier: BSD-3-Clause */
/* The types MPI_Type_create_f90_real/complex/integer return: predefined types made on demand (MPI-3.1
 * 17.2.5), one per (combiner, p, r) in the job, so that the same arguments give the same handle; never
 * freed; their envelope is the F90 combiner with the arguments as given (MPICH's f90/createf90types).  The
 * list is a static that checkpoints carry, the types live in the job heap like every derived type. */
#include <pthread.h>
#include "ckpt/ckpt.h"
#include "iso/iso.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/f90.h"

#define MAX_F90 256 /* distinct (combiner, p, r) of a job; more are refused (MPI_ERR_INTERN) */

typedef struct made {
    int combiner, p, r;
    vmpi_dtype *dt;
    MPI_Datatype handle;
} made;

static made types[MAX_F90];
static int ntypes;
VMPI_CKPT_STATIC(types)
VMPI_CKPT_STATIC(ntypes)
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int vmpi_dt_f90_count(void)
{
    pthread_mutex_lock(&lock);
    int n = ntypes;
    pthread_mutex_unlock(&lock);
    return n;
}

bool vmpi_dt_is_f90(const vmpi_dtype *dt)
{
    int c = dt->contents.combiner;
    return c == MPI_COMBINER_F90_REAL || c == MPI_COMBINER_F90_COMPLEX || c == MPI_COMBINER_F90_INTEGER;
}

MPI_Datatype vmpi_dt_f90_handle(const vmpi_dtype *dt)
{
    MPI_Datatype h = MPI_DATATYPE_NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < ntypes && h == MPI_DATATYPE_NULL; i++)
        if (types[i].dt == dt)
            h = types[i].handle;
    pthread_mutex_unlock(&lock);
    return h;
}

MPI_Datatype vmpi_dt_f90_get(int combiner, int p, int r, vmpi_dtype *basic)
{
    MPI_Datatype h = MPI_DATATYPE_NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < ntypes && h == MPI_DATATYPE_NULL; i++)
        if (types[i].combiner == combiner && types[i].p == p && types[i].r == r)
            h = types[i].handle;
    if (h == MPI_DATATYPE_NULL && ntypes < MAX_F90) {
        int ints[2] = {p, r}; /* F90_INTEGER: r alone */
        bool integer = combiner == MPI_COMBINER_F90_INTEGER;
        /* every rank of the process shares it: in the job heap, not the asking rank's slot (iso.h) */
        vmpi_iso_heap *cur = vmpi_iso_cur_;
        vmpi_iso_leave();
        vmpi_dtype *dt = vmpi_dt_f90(basic, combiner, integer ? 1 : 2, integer ? &ints[1] : ints);
        vmpi_iso_enter(cur);
        if (dt && (h = vmpi_dt_register_shared(dt)) != MPI_DATATYPE_NULL)
            types[ntypes++] = (made){combiner, p, r, dt, h};
        else if (dt)
            vmpi_dtype_release(dt);
    }
    pthread_mutex_unlock(&lock);
    return h;
}
