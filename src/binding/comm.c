/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_* and MPI_Intercomm_*, communicator constructors, queries and names: the implementations behind the
 * generated entry points (<build>/gen/binding/comm_entry.c, from src/binding/spec/comm.toml), which check the
 * arguments, resolve the handles and report the errors these return through the communicator's handler.
 * Those that block name themselves for deadlock reports (VMPI_VP_CALL). */
#include <string.h>
#include "binding/hwres.h"
#include "binding/impl.h"
#include "mpi/comm/comm_create.h"
#include "xport/procs.h"

int vmpi_b_Comm_dup(vmpi_comm *comm, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_dup");
    return vmpi_comm_dup(comm, newcomm);
}

int vmpi_b_Comm_idup(vmpi_comm *comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return vmpi_comm_idup(comm, false, MPI_INFO_NULL, newcomm, request);
}

int vmpi_b_Comm_idup_with_info(vmpi_comm *comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return vmpi_comm_idup(comm, true, info, newcomm, request);
}

int vmpi_b_Comm_dup_with_info(vmpi_comm *comm, MPI_Info info, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_dup_with_info");
    return vmpi_comm_dup_with_info(comm, true, info, newcomm);
}

/* vmpi acts on no communicator hint yet; it keeps every hint set and returns them (MPI-3.1 allows ignoring
 * hints; returning what was set tells the user nothing was lost). */
int vmpi_b_Comm_set_info(vmpi_comm *comm, MPI_Info info)
{
    MPI_Info copy = MPI_INFO_NULL;
    int err = vmpi_info_dup(info, &copy);
    if (err)
        return err;
    if (comm->info != MPI_INFO_NULL)
        vmpi_info_free(&comm->info);
    comm->info = copy;
    return MPI_SUCCESS;
}

int vmpi_b_Comm_get_info(vmpi_comm *comm, MPI_Info *info_used)
{
    return vmpi_info_dup(comm->info, info_used); /* a new object, even when no hint was set */
}

/* On an intercommunicator, each color held by both groups becomes an intercommunicator between them. */
int vmpi_b_Comm_split(vmpi_comm *comm, int color, int key, MPI_Comm *newcomm)
{
    VMPI_VP_CALL("MPI_Comm_split");
    return vmpi_comm_split(comm, color, key, newcomm);
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
    vmpi_comm *c = vmpi_comm_get(comm);
    if (c == NULL)
        return MPI_ERR_COMM;
    int err = c->info == MPI_INFO_NULL ? vmpi_info_create(&c->info) : MPI_SUCCESS;
    return err ? err : vmpi_info_set(c->info, "mpi_hw_resource_type", type);
}

/* On an intercommunicator (MPICH and Open MPI accept it too): an intercommunicator between the two groups'
 * ranks of each domain. */
int vmpi_b_Comm_split_type(vmpi_comm *comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm, vmpi_chk *ck)
{
    VMPI_VP_CALL("MPI_Comm_split_type");
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED && split_type != MPI_UNDEFINED) {
        snprintf(ck->why, sizeof ck->why, "unknown split type %d", split_type);
        return MPI_ERR_ARG;
    }
    char type[MPI_MAX_INFO_VAL] = "";
    int color = MPI_UNDEFINED, flag = 0, err = MPI_SUCCESS;
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED)
        err = vmpi_hwres_unguided(comm, &color, type, sizeof type);
    else if (split_type != MPI_UNDEFINED)
        color = split_color(split_type, info);
    if (!err && split_type == MPI_COMM_TYPE_HW_GUIDED && info != MPI_INFO_NULL)
        err = vmpi_info_get(info, "mpi_hw_resource_type", sizeof type, type, &flag);
    if (!err)
        err = vmpi_comm_split(comm, color, key, newcomm);
    if (!err && type[0] && *newcomm != MPI_COMM_NULL)
        err = note_resource(*newcomm, type);
    /* the resource also into the program's info, where MPICH puts it (its test suite reads it there) */
    if (!err && split_type == MPI_COMM_TYPE_HW_UNGUIDED && type[0] && info != MPI_INFO_NULL)
        err = vmpi_info_set(info, "mpi_hw_resource_type", type);
    return err;
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
int vmpi_b_Comm_create(vmpi_comm *comm, vmpi_group *group, MPI_Comm *newcomm, vmpi_chk *ck)
{
    VMPI_VP_CALL("MPI_Comm_create");
    int err = chk_subgroup(ck, comm, group);
    return err ? err : vmpi_comm_create(comm, group, newcomm);
}

int vmpi_b_Comm_create_group(vmpi_comm *comm, vmpi_group *group, int tag, MPI_Comm *newcomm, vmpi_chk *ck)
{
    VMPI_VP_CALL("MPI_Comm_create_group");
    int err = chk_subgroup(ck, comm, group);
    if (err)
        return err;
    if (vmpi_group_rank_of(group, vmpi_rank_self()->world_rank) == MPI_UNDEFINED) {
        snprintf(ck->why, sizeof ck->why, "the calling rank is not in the group");
        return MPI_ERR_GROUP;
    }
    return vmpi_comm_create_group(comm, group, tag, newcomm);
}

int vmpi_b_Comm_compare(vmpi_comm *comm1, vmpi_comm *comm2, int *result)
{
    *result = vmpi_comm_compare(comm1, comm2);
    return MPI_SUCCESS;
}

int vmpi_b_Comm_free(MPI_Comm *comm)
{
    int err = vmpi_attr_delete_all(*comm); /* first, while the communicator is still usable by the callbacks */
    if (err)
        return err;
    vmpi_comm_release(vmpi_comm_get(*comm));
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int vmpi_b_Comm_test_inter(vmpi_comm *comm, int *flag)
{
    *flag = vmpi_comm_is_inter(comm);
    return MPI_SUCCESS;
}

int vmpi_b_Comm_remote_size(vmpi_comm *comm, int *size)
{
    *size = comm->remote->size;
    return MPI_SUCCESS;
}

static int group_out(vmpi_group *g, MPI_Group *out)
{
    if (g == NULL)
        return MPI_ERR_NO_MEM;
    *out = vmpi_group_handle(g);
    vmpi_group_unref(g);
    return *out == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int vmpi_b_Comm_remote_group(vmpi_comm *comm, MPI_Group *group)
{
    return group_out(vmpi_group_ref(comm->remote), group);
}

int vmpi_b_Comm_group(vmpi_comm *comm, MPI_Group *group) { return group_out(vmpi_comm_group(comm), group); }

int vmpi_b_Comm_set_name(vmpi_comm *comm, const char *comm_name)
{
    /* longer names are truncated, as the standard allows */
    strncpy(comm->name, comm_name, MPI_MAX_OBJECT_NAME - 1);
    comm->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    return MPI_SUCCESS;
}

int vmpi_b_Comm_get_name(vmpi_comm *comm, char *comm_name, int *resultlen)
{
    strcpy(comm_name, comm->name);
    *resultlen = (int)strlen(comm->name);
    return MPI_SUCCESS;
}

int vmpi_b_Intercomm_create(vmpi_comm *local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                            MPI_Comm *newintercomm, vmpi_chk *ck)
{
    VMPI_VP_CALL("MPI_Intercomm_create");
    vmpi_comm *pc = NULL;
    if (local_comm->rank == local_leader) { /* peer_comm and remote_leader matter at the local leader only */
        int err = vmpi_chk_comm(ck, peer_comm, &pc);
        if (err)
            return err;
        if (remote_leader < 0 || remote_leader >= pc->peer_size) {
            snprintf(ck->why, sizeof ck->why, "remote leader %d is not in the peer communicator of size %d",
                     remote_leader, pc->peer_size);
            return MPI_ERR_RANK;
        }
    }
    return vmpi_intercomm_create(local_comm, local_leader, pc, remote_leader, tag, newintercomm);
}

int vmpi_b_Intercomm_merge(vmpi_comm *intercomm, int high, MPI_Comm *newintracomm)
{
    VMPI_VP_CALL("MPI_Intercomm_merge");
    return vmpi_intercomm_merge(intercomm, high, newintracomm);
}
