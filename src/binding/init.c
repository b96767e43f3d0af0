/* SPDX-License-Identifier: BSD-3-Clause */
/* Initialization, environment and communicator queries: the implementations of the generated entry points
 * (spec init.toml says who may call each: MPI_Initialized, MPI_Get_version and MPI_Abort anyone, anywhere). */
#include <string.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/log.h"
#include "binding/impl.h"
#include "mpi/adapt/adapt.h"
#include "mpi/coll/coll.h"
#include "mpi/core/session.h"
#include "mpi/pt2pt/pt2pt.h"
#include "xport/netjob.h"

/* (argc and argv are not read: the ranks got theirs before main) */
int vmpi_b_Init_thread(int *argc, char ***argv, int required, int *provided, vmpi_chk *ck)
{
    (void)argc;
    (void)argv;
    vmpi_rank *rk = vmpi_rank_self();
    if (rk->initialized || rk->finalized) {
        snprintf(ck->why, sizeof ck->why, "MPI is already %s", rk->finalized ? "finalized" : "initialized");
        return MPI_ERR_OTHER;
    }
    rk->initialized = true;
    vmpi_session_update_live(rk);
    /* a rank is one user-level thread: it may make MPI calls from its own thread only */
    if (provided)
        *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

int vmpi_b_Init(int *argc, char ***argv, vmpi_chk *ck)
{
    return vmpi_b_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL, ck);
}

int vmpi_b_Initialized(int *flag)
{
    vmpi_rank *rk = vmpi_rank_self();
    *flag = rk && rk->initialized;
    return MPI_SUCCESS;
}

int vmpi_b_Finalized(int *flag)
{
    vmpi_rank *rk = vmpi_rank_self();
    *flag = rk && rk->finalized;
    return MPI_SUCCESS;
}

int vmpi_b_Finalize(vmpi_chk *ck)
{
    VMPI_VP_CALL("MPI_Finalize");
    vmpi_rank *rk = vmpi_rank_self();
    if (!rk->initialized || rk->finalized) {
        snprintf(ck->why, sizeof ck->why, "MPI is %s", rk->finalized ? "already finalized" : "not initialized");
        return MPI_ERR_OTHER;
    }
    /* attributes of MPI_COMM_SELF, then MPI_COMM_WORLD, are deleted first, while MPI still works (MPI-3.1
     * 8.7.1: this is how a library runs code at the end) */
    int attr_err = vmpi_attr_finalize();
    /* everybody reaches Finalize before anybody leaves: no rank disappears under a pending message */
    vmpi_coll_barrier(&rk->world, NULL);
    vmpi_bsend_finalize(); /* pending buffered messages are delivered before we leave */
    rk->finalized = true;
    vmpi_session_update_live(rk); /* the rank's open sessions go on (MPI-4.1 11.3) */
    if (attr_err != MPI_SUCCESS)
        snprintf(ck->why, sizeof ck->why, "an attribute delete callback returned %d", attr_err);
    return attr_err;
}

int vmpi_b_Abort(MPI_Comm comm, int errorcode)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_log_run_die_hook(); /* the ranks' output first, then the message */
    vmpi_warn("rank %d called MPI_Abort(%s, %d): stopping the job", rk ? rk->world_rank : -1,
              comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "comm",
              errorcode);
    vmpi_job_abort(errorcode);
}

int vmpi_b_Query_thread(int *provided)
{
    *provided = MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

int vmpi_b_Is_thread_main(int *flag)
{
    *flag = vmpi_rank_self() != NULL;
    return MPI_SUCCESS;
}

int vmpi_b_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int vmpi_b_Get_library_version(char *version, int *resultlen)
{
    const char *v = "vmpi " VMPI_VERSION_STRING " (MPI 4.1; ranks are user-level threads)";
    strcpy(version, v);
    *resultlen = (int)strlen(v);
    return MPI_SUCCESS;
}

int vmpi_b_Get_processor_name(char *name, int *resultlen)
{
    /* the host of the process the rank runs in now (a rank moves between processes only by migrating, and
     * then names its new host): in a job of several processes as the launcher knows it (PMIx), which a
     * process may have no other way to learn (a container's own host name) */
    const vmpi_net_job *job = vmpi_xport_net_job();
    if (job)
        snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", job->host);
    else if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        strcpy(name, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

double vmpi_b_Wtime(void) { return vmpi_wtime(); }

double vmpi_b_Wtick(void) { return 1e-9; }

int vmpi_b_Comm_rank(vmpi_comm *comm, int *rank)
{
    *rank = comm->rank;
    return MPI_SUCCESS;
}

int vmpi_b_Comm_size(vmpi_comm *comm, int *size)
{
    *size = comm->size;
    return MPI_SUCCESS;
}
