/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_* and MPI_Intercomm_*: communicator constructors, queries and names. */
#include <string.h>
#include <strings.h>
#include "binding/check.h"
#include "binding/hwres.h"
#include "mpi/comm/comm_create.h"
#include "xport/netjob.h"
#include "xport/procs.h"

/* A rank's check that the communicator argument is valid, and optionally an intracommunicator. */
static int comm_arg(vmpi_chk *ck, MPI_Comm comm, vmpi_comm **c, bool intra)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)))
        return err;
    return intra ? vmpi_chk_intra(ck, *c) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_dup");
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err)
        err = vmpi_comm_dup(c, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Comm_dup", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err)
        err = vmpi_chk_ptr(&ck, request, "request");
    if (!err)
        err = vmpi_comm_idup(c, false, MPI_INFO_NULL, newcomm, request);
    return err ? vmpi_fail(comm, err, "MPI_Comm_idup", &ck) : MPI_SUCCESS;
}

/* The arguments of the *dup_with_info calls: the communicator, the hints (MPI_INFO_NULL allowed), newcomm. */
static int dup_info_args(vmpi_chk *ck, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, vmpi_comm **c)
{
    int err = comm_arg(ck, comm, c, false);
    if (!err && info != MPI_INFO_NULL)
        err = vmpi_chk_info(ck, info);
    if (!err)
        err = vmpi_chk_ptr(ck, newcomm, "newcomm");
    return err;
}

VMPI_WEAK(Comm_idup_with_info)
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = dup_info_args(&ck, comm, info, newcomm, &c);
    if (!err)
        err = vmpi_chk_ptr(&ck, request, "request");
    if (!err)
        err = vmpi_comm_idup(c, true, info, newcomm, request);
    return err ? vmpi_fail(comm, err, "MPI_Comm_idup_with_info", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_dup_with_info");
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = dup_info_args(&ck, comm, info, newcomm, &c);
    if (!err)
        err = vmpi_comm_dup_with_info(c, true, info, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Comm_dup_with_info", &ck) : MPI_SUCCESS;
}

/* vmpi acts on no communicator hint yet; it keeps every hint set and returns them (MPI-3.1 allows ignoring
 * hints; returning what was set tells the user nothing was lost). */
VMPI_WEAK(Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_info(&ck, info);
    MPI_Info copy = MPI_INFO_NULL;
    if (!err)
        err = vmpi_info_dup(info, &copy);
    if (!err) {
        if (c->info != MPI_INFO_NULL)
            vmpi_info_free(&c->info);
        c->info = copy;
    }
    return err ? vmpi_fail(comm, err, "MPI_Comm_set_info", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, info_used, "info_used");
    if (!err)
        err = vmpi_info_dup(c->info, info_used); /* a new object, even when no hint was set */
    return err ? vmpi_fail(comm, err, "MPI_Comm_get_info", &ck) : MPI_SUCCESS;
}

/* On an intercommunicator, each color held by both groups becomes an intercommunicator between them. */
VMPI_WEAK(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_split");
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err && color < 0 && color != MPI_UNDEFINED) {
        snprintf(ck.why, sizeof ck.why, "color %d is negative and not MPI_UNDEFINED", color);
        err = MPI_ERR_ARG;
    }
    if (!err)
        err = vmpi_comm_split(c, color, key, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Comm_split", &ck) : MPI_SUCCESS;
}

/* The color of the calling rank for a split type: its process for MPI_COMM_TYPE_SHARED (the ranks of one
 * process share memory, those of two do not, nor do the emulated mode's process groups: a shared-memory
 * window spans one process); for MPI-4's MPI_COMM_TYPE_HW_GUIDED, the resource the info key
 * mpi_hw_resource_type names (binding/hwres.c: "mpi_shared_memory", the node, hwloc's levels); another or
 * none: MPI_UNDEFINED (MPI_COMM_NULL, as MPI-4 says for a resource the implementation does not know). */
static int split_color(int split_type, MPI_Info info)
{
    if (split_type == MPI_COMM_TYPE_SHARED)
        return vmpi_xport_self_proc();
    char v[MPI_MAX_INFO_VAL];
    int flag = 0;
    if (split_type != MPI_COMM_TYPE_HW_GUIDED || info == MPI_INFO_NULL ||
        vmpi_info_get(info, "mpi_hw_resource_type", sizeof v, v, &flag) != MPI_SUCCESS || !flag)
        return MPI_UNDEFINED;
    return vmpi_hwres_color(v);
}

/* MPI-4: a communicator made by MPI_COMM_TYPE_HW_GUIDED or _UNGUIDED has the resource it spans in its info. */
static int note_resource(MPI_Comm comm, const char *type)
{
    vmpi_chk ck = {0};
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err && c->info == MPI_INFO_NULL)
        err = vmpi_info_create(&c->info);
    return err ? err : vmpi_info_set(c->info, "mpi_hw_resource_type", type);
}

/* On an intercommunicator (MPICH and Open MPI accept it too): an intercommunicator between the two groups'
 * ranks of each domain. */
VMPI_WEAK(Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_split_type");
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err && info != MPI_INFO_NULL)
        err = vmpi_chk_info(&ck, info);
    if (!err && split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED && split_type != MPI_UNDEFINED) {
        snprintf(ck.why, sizeof ck.why, "unknown split type %d", split_type);
        err = MPI_ERR_ARG;
    }
    char type[MPI_MAX_INFO_VAL] = "";
    int color = MPI_UNDEFINED, flag = 0;
    if (!err && split_type == MPI_COMM_TYPE_HW_UNGUIDED)
        err = vmpi_hwres_unguided(c, &color, type, sizeof type);
    else if (!err && split_type != MPI_UNDEFINED)
        color = split_color(split_type, info);
    if (!err && split_type == MPI_COMM_TYPE_HW_GUIDED && info != MPI_INFO_NULL)
        err = vmpi_info_get(info, "mpi_hw_resource_type", sizeof type, type, &flag);
    if (!err)
        err = vmpi_comm_split(c, color, key, newcomm);
    if (!err && type[0] && *newcomm != MPI_COMM_NULL)
        err = note_resource(*newcomm, type);
    /* the resource also into the program's info, where MPICH puts it (its test suite reads it there) */
    if (!err && split_type == MPI_COMM_TYPE_HW_UNGUIDED && type[0] && info != MPI_INFO_NULL)
        err = vmpi_info_set(info, "mpi_hw_resource_type", type);
    return err ? vmpi_fail(comm, err, "MPI_Comm_split_type", &ck) : MPI_SUCCESS;
}

/* `g` must be a subset of the group of `c` (the local group of an intercommunicator). */
static int chk_subgroup(vmpi_chk *ck, const vmpi_comm *c, const vmpi_group *g)
{
    vmpi_group *cg = vmpi_comm_group(c);
    int bad = -1;
    for (int i = 0; cg && i < g->size && bad < 0; i++)
        if (vmpi_group_rank_of(cg, g->world[i]) == MPI_UNDEFINED)
            bad = i;
    vmpi_group_unref(cg);
    if (cg == NULL)
        return MPI_ERR_NO_MEM;
    if (bad < 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d of the group is not in the %s", bad,
             vmpi_comm_is_inter(c) ? "local group of the intercommunicator" : "communicator");
    return MPI_ERR_GROUP;
}

/* On an intercommunicator, each group names the members of its side (a subset of the local group). */
VMPI_WEAK(Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_create");
    VMPI_CHK(ck);
    vmpi_comm *c;
    vmpi_group *g;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_group(&ck, group, &g);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err)
        err = chk_subgroup(&ck, c, g);
    if (!err)
        err = vmpi_comm_create(c, g, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Comm_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_create_group");
    VMPI_CHK(ck);
    vmpi_comm *c;
    vmpi_group *g;
    int err = comm_arg(&ck, comm, &c, true);
    if (!err)
        err = vmpi_chk_group(&ck, group, &g);
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (!err)
        err = vmpi_chk_send_tag(&ck, tag);
    if (!err)
        err = chk_subgroup(&ck, c, g);
    if (!err && vmpi_group_rank_of(g, vmpi_rank_self()->world_rank) == MPI_UNDEFINED) {
        snprintf(ck.why, sizeof ck.why, "the calling rank is not in the group");
        err = MPI_ERR_GROUP;
    }
    if (!err)
        err = vmpi_comm_create_group(c, g, tag, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Comm_create_group", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    VMPI_CHK(ck);
    vmpi_comm *a, *b;
    int err = comm_arg(&ck, comm1, &a, false);
    if (!err)
        err = vmpi_chk_comm(&ck, comm2, &b);
    if (!err)
        err = vmpi_chk_ptr(&ck, result, "result");
    if (!err)
        *result = vmpi_comm_compare(a, b);
    return err ? vmpi_fail(comm1, err, "MPI_Comm_compare", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_free)
int PMPI_Comm_free(MPI_Comm *comm)
{
    VMPI_CHK(ck);
    vmpi_comm *c = NULL;
    int err = vmpi_chk_ranked(&ck);
    if (!err)
        err = vmpi_chk_ptr(&ck, comm, "comm");
    if (!err)
        err = comm_arg(&ck, *comm, &c, false);
    if (!err && (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)) {
        snprintf(ck.why, sizeof ck.why, "a predefined communicator cannot be freed");
        err = MPI_ERR_COMM;
    }
    if (!err)
        err = vmpi_attr_delete_all(*comm); /* first, while the communicator is still usable by the callbacks */
    if (err)
        return vmpi_fail(comm ? *comm : MPI_COMM_NULL, err, "MPI_Comm_free", &ck);
    vmpi_comm_release(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

VMPI_WEAK(Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, flag, "flag");
    if (!err)
        *flag = vmpi_comm_is_inter(c);
    return err ? vmpi_fail(comm, err, "MPI_Comm_test_inter", &ck) : MPI_SUCCESS;
}

/* The remote group of an intercommunicator. */
static int chk_inter(vmpi_chk *ck, const vmpi_comm *c)
{
    if (vmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "not an intercommunicator");
    return MPI_ERR_COMM;
}

VMPI_WEAK(Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = chk_inter(&ck, c);
    if (!err)
        err = vmpi_chk_ptr(&ck, size, "size");
    if (!err)
        *size = c->remote->size;
    return err ? vmpi_fail(comm, err, "MPI_Comm_remote_size", &ck) : MPI_SUCCESS;
}

static int group_out(vmpi_group *g, MPI_Group *out)
{
    if (g == NULL)
        return MPI_ERR_NO_MEM;
    *out = vmpi_group_handle(g);
    vmpi_group_unref(g);
    return *out == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

VMPI_WEAK(Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = chk_inter(&ck, c);
    if (!err)
        err = vmpi_chk_ptr(&ck, group, "group");
    if (!err)
        err = group_out(vmpi_group_ref(c->remote), group);
    return err ? vmpi_fail(comm, err, "MPI_Comm_remote_group", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, group, "group");
    if (!err)
        err = group_out(vmpi_comm_group(c), group);
    return err ? vmpi_fail(comm, err, "MPI_Comm_group", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, name, "name");
    if (!err) {
        /* longer names are truncated, as the standard allows */
        strncpy(c->name, name, MPI_MAX_OBJECT_NAME - 1);
        c->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    }
    return err ? vmpi_fail(comm, err, "MPI_Comm_set_name", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, comm, &c, false);
    if (!err)
        err = vmpi_chk_ptr(&ck, name, "name");
    if (!err)
        err = vmpi_chk_ptr(&ck, resultlen, "resultlen");
    if (!err) {
        strcpy(name, c->name);
        *resultlen = (int)strlen(c->name);
    }
    return err ? vmpi_fail(comm, err, "MPI_Comm_get_name", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    VMPI_VP_CALL("MPI_Intercomm_create");
    VMPI_CHK(ck);
    vmpi_comm *lc, *pc = NULL;
    int err = comm_arg(&ck, local_comm, &lc, true);
    if (!err)
        err = vmpi_chk_root(&ck, local_leader, lc);
    if (!err)
        err = vmpi_chk_ptr(&ck, newintercomm, "newintercomm");
    if (!err)
        err = vmpi_chk_send_tag(&ck, tag);
    /* peer_comm and remote_leader matter at the local leader only */
    if (!err && lc->rank == local_leader) {
        if (!(err = vmpi_chk_comm(&ck, peer_comm, &pc)) && (remote_leader < 0 || remote_leader >= pc->peer_size)) {
            snprintf(ck.why, sizeof ck.why, "remote leader %d is not in the peer communicator of size %d",
                     remote_leader, pc->peer_size);
            err = MPI_ERR_RANK;
        }
    }
    if (!err)
        err = vmpi_intercomm_create(lc, local_leader, pc, remote_leader, tag, newintercomm);
    return err ? vmpi_fail(local_comm, err, "MPI_Intercomm_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    VMPI_VP_CALL("MPI_Intercomm_merge");
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = comm_arg(&ck, intercomm, &c, false);
    if (!err)
        err = chk_inter(&ck, c);
    if (!err)
        err = vmpi_chk_ptr(&ck, newintracomm, "newintracomm");
    if (!err)
        err = vmpi_intercomm_merge(c, high, newintracomm);
    return err ? vmpi_fail(intercomm, err, "MPI_Intercomm_merge", &ck) : MPI_SUCCESS;
}
