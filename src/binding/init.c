/* SPDX-License-Identifier: BSD-3-Clause */
/* Initialization, environment and communicator-query entry points. */
#include <string.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/log.h"
#include "binding/check.h"
#include "mpi/adapt/adapt.h"
#include "mpi/coll/coll.h"
#include "mpi/core/session.h"
#include "mpi/pt2pt/pt2pt.h"
#include "xport/netjob.h"

VMPI_WEAK(Init_thread)
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    VMPI_CHK(ck);
    int err = vmpi_chk_in_rank(&ck);
    vmpi_rank *rk = vmpi_rank_self();
    if (err == MPI_SUCCESS && (rk->initialized || rk->finalized)) {
        snprintf(ck.why, sizeof ck.why, "MPI is already %s", rk->finalized ? "finalized" : "initialized");
        err = MPI_ERR_OTHER;
    }
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Init", &ck);
    rk->initialized = true;
    vmpi_session_update_live(rk);
    /* a rank is one user-level thread: it may make MPI calls from its own thread only */
    if (provided)
        *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

VMPI_WEAK(Init)
int PMPI_Init(int *argc, char ***argv) { return PMPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL); }

VMPI_WEAK(Initialized)
int PMPI_Initialized(int *flag)
{
    vmpi_rank *rk = vmpi_rank_self();
    *flag = rk && rk->initialized;
    return MPI_SUCCESS;
}

VMPI_WEAK(Finalized)
int PMPI_Finalized(int *flag)
{
    vmpi_rank *rk = vmpi_rank_self();
    *flag = rk && rk->finalized;
    return MPI_SUCCESS;
}

VMPI_WEAK(Finalize)
int PMPI_Finalize(void)
{
    VMPI_VP_CALL("MPI_Finalize");
    VMPI_CHK(ck);
    int err = vmpi_chk_in_rank(&ck);
    vmpi_rank *rk = vmpi_rank_self();
    if (err == MPI_SUCCESS && (!rk->initialized || rk->finalized)) {
        snprintf(ck.why, sizeof ck.why, "MPI is %s", rk->finalized ? "already finalized" : "not initialized");
        err = MPI_ERR_OTHER;
    }
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Finalize", &ck);
    /* attributes of MPI_COMM_SELF, then MPI_COMM_WORLD, are deleted first, while MPI still works (MPI-3.1
     * 8.7.1: this is how a library runs code at the end) */
    int attr_err = vmpi_attr_finalize();
    /* everybody reaches Finalize before anybody leaves: no rank disappears under a pending message */
    vmpi_coll_barrier(&rk->world, NULL);
    vmpi_bsend_finalize(); /* pending buffered messages are delivered before we leave */
    rk->finalized = true;
    vmpi_session_update_live(rk); /* the rank's open sessions go on (MPI-4.1 11.3) */
    if (attr_err != MPI_SUCCESS) {
        snprintf(ck.why, sizeof ck.why, "an attribute delete callback returned %d", attr_err);
        return vmpi_fail(MPI_COMM_WORLD, attr_err, "MPI_Finalize", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_log_run_die_hook(); /* the ranks' output first, then the message */
    vmpi_warn("rank %d called MPI_Abort(%s, %d): stopping the job", rk ? rk->world_rank : -1,
              comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "comm",
              errorcode);
    vmpi_job_abort(errorcode);
}

VMPI_WEAK(Query_thread)
int PMPI_Query_thread(int *provided)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Query_thread");
    *provided = MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

VMPI_WEAK(Is_thread_main)
int PMPI_Is_thread_main(int *flag)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Is_thread_main");
    *flag = vmpi_rank_self() != NULL;
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_version)
int PMPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen)
{
    const char *v = "vmpi " VMPI_VERSION_STRING " (MPI 3.1; ranks are user-level threads)";
    strcpy(version, v);
    *resultlen = (int)strlen(v);
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Get_processor_name");
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

VMPI_WEAK(Wtime)
double PMPI_Wtime(void) { return vmpi_wtime(); }

VMPI_WEAK(Wtick)
double PMPI_Wtick(void) { return 1e-9; }

VMPI_WEAK(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_ptr(&ck, rank, "rank")))
        return vmpi_fail(comm, err, "MPI_Comm_rank", &ck);
    *rank = c->rank;
    return MPI_SUCCESS;
}

VMPI_WEAK(Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(comm, err, "MPI_Comm_size", &ck);
    *size = c->size;
    return MPI_SUCCESS;
}
