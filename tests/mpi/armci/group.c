/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI groups:
 *   - the world group (ARMCI_Group_get_world) and the default one: size, rank, ARMCI_Absolute_id = identity;
 *   - a group of the even ranks in reverse order (group rank i = world rank 2 (n-1-i)), created by every
 *     process of the default group (armci-mpi's collective mode; the others get no membership): rank, size,
 *     absolute ids; ARMCI_Malloc_group with sizes that differ per member: ptr_arr is indexed by group rank
 *     (vmpi: ptr_arr[i] in the slot of world rank Absolute_id(i)), and puts and gets to it take world ids;
 *   - armci_msg_group_barrier, armci_msg_group_igop / lgop / llgop / fgop / dgop and group_gop_scope,
 *     armci_msg_group_bcast_scope from group rank 1 (a root taken as a world id would be another process);
 *   - ARMCI_Group_create_child (every other member of the group, ids relative to the parent);
 *   - ARMCI_Group_set_default: ids of ARMCI_Group_create are then relative to the new default group;
 *     get_default; back to the world group;
 *   - vmpi: a put into a group allocation by a process outside the group; a group of the odd ranks created
 *     by its members only, used, freed. */
#include "armci_test.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, gr = -1, gs = -1;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    ARMCI_Group world, def, g, child, d1;
    ARMCI_Group_get_world(&world);
    ARMCI_Group_get_default(&def);
    MT_CHECK_INT(errs, "ARMCI_Group_rank(world)'s result", 0, ARMCI_Group_rank(&world, &gr));
    MT_CHECK_INT(errs, "rank in the world group", rank, gr);
    ARMCI_Group_size(&world, &gs);
    MT_CHECK_INT(errs, "size of the world group", size, gs);
    ARMCI_Group_size(&def, &gs);
    MT_CHECK_INT(errs, "size of the default group", size, gs);
    for (int i = 0; i < size; i++)
        MT_CHECK_INT(errs, "ARMCI_Absolute_id in the world group", i, ARMCI_Absolute_id(&world, i));

    /* ---- the even ranks, reversed ---- */
    int n = (size + 1) / 2, member = rank % 2 == 0;
    int *pid = mt_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        pid[i] = 2 * (n - 1 - i);
    ARMCI_Group_create(n, pid, &g);
    int myg = n - 1 - rank / 2, **gp = mt_malloc(sizeof(int *) * (size_t)n);
    if (member) {
        gr = gs = -1;
        MT_CHECK_INT(errs, "ARMCI_Group_rank's result", 0, ARMCI_Group_rank(&g, &gr));
        MT_CHECK_INT(errs, "ARMCI_Group_rank", myg, gr);
        ARMCI_Group_size(&g, &gs);
        MT_CHECK_INT(errs, "ARMCI_Group_size", n, gs);
        for (int i = 0; i < n; i++)
            MT_CHECK_INT(errs, "ARMCI_Absolute_id", pid[i], ARMCI_Absolute_id(&g, i));
        (void)ARMCI_Uses_shm_grp(&g);

        /* group allocation: member i has (i + 1) * 8 ints, and one more for a non-member (vmpi) */
        MT_CHECK_INT(errs, "ARMCI_Malloc_group", 0,
                     ARMCI_Malloc_group((void **)gp, (armci_size_t)sizeof(int) * (8 * (myg + 1) + 1), &g));
        for (int i = 0; i < n; i++) {
            MT_CHECK(errs, gp[i] != NULL, "ARMCI_Malloc_group: ptr_arr[%d] is NULL", i);
#ifdef ARMCI_VMPI
            MT_CHECK_INT(errs, "slot of a group allocation (world rank of the group member)", MT_HEAP_SLOT(pid[i]),
                         MPIX_Iso_rank(gp[i]));
#endif
        }
        for (int i = 0; i <= 8 * (myg + 1); i++)
            gp[myg][i] = -1;
        armci_msg_group_barrier(&g);
        /* put to the group's next member, at my group rank's place (its last int is within its 8 (i+1) ints) */
        int gnext = (myg + 1) % n, gprev = (myg + n - 1) % n, wnext = ARMCI_Absolute_id(&g, gnext);
        int val[2] = {1000 * rank + myg, -rank};
        MT_CHECK_INT(errs, "ARMCI_Put into a group allocation (world id)", 0,
                     ARMCI_Put(val, gp[gnext] + 2 * (myg % (4 * (gnext + 1))), sizeof val, wnext));
#ifdef ARMCI_VMPI
        ARMCI_GroupFence(&g);
#else
        ARMCI_AllFence();
#endif
        armci_msg_group_barrier(&g);
        int at = 2 * (gprev % (4 * (myg + 1))), wprev = ARMCI_Absolute_id(&g, gprev);
        MT_CHECK_INT(errs, "group allocation: first int put by the previous member", 1000 * wprev + gprev, gp[myg][at]);
        MT_CHECK_INT(errs, "group allocation: second int put by the previous member", -wprev, gp[myg][at + 1]);
        int back[2] = {0, 0};
        MT_CHECK_INT(errs, "ARMCI_Get from a group allocation (world id)", 0,
                     ARMCI_Get(gp[gnext] + 2 * (myg % (4 * (gnext + 1))), back, sizeof back, wnext));
        MT_CHECK_INT(errs, "ARMCI_Get from a group allocation", 1000 * rank + myg, back[0]);

        /* group collectives */
        int isum = rank;
        long lmax = rank;
        long long llmin = rank + 5;
        float fsum = 0.5f;
        double dprod = rank % 4 == 0 ? 2 : 1, dscope = rank;
        armci_msg_group_igop(&isum, 1, "+", &g);
        armci_msg_group_lgop(&lmax, 1, "max", &g);
        armci_msg_group_llgop(&llmin, 1, "min", &g);
        armci_msg_group_fgop(&fsum, 1, "+", &g);
        armci_msg_group_dgop(&dprod, 1, "*", &g);
        armci_msg_group_gop_scope(SCOPE_ALL, &dscope, 1, "max", ARMCI_DOUBLE, &g);
        long esum = 0, eprod = 1;
        for (int i = 0; i < n; i++) {
            esum += pid[i];
            eprod *= pid[i] % 4 == 0 ? 2 : 1;
        }
        MT_CHECK_INT(errs, "armci_msg_group_igop +", esum, isum);
        MT_CHECK_INT(errs, "armci_msg_group_lgop max", 2 * (n - 1), lmax);
        MT_CHECK_INT(errs, "armci_msg_group_llgop min", 5, llmin);
        MT_CHECK(errs, fsum == 0.5f * n, "armci_msg_group_fgop +: expected %g, got %g", 0.5 * n, fsum);
        MT_CHECK(errs, dprod == (double)eprod, "armci_msg_group_dgop *: expected %g, got %g", (double)eprod, dprod);
        MT_CHECK(errs, dscope == 2.0 * (n - 1), "armci_msg_group_gop_scope max: expected %g, got %g", 2.0 * (n - 1), dscope);
        /* the root is a group rank (GA's ComEx ARMCI and older armci-mpi); armci-mpi 0.3.1 takes a world id */
        int root = n > 1 ? 1 : 0, b[3] = {rank, rank, rank};
        armci_msg_group_bcast_scope(SCOPE_ALL, b, sizeof b, MT_ARMCI_MPI ? pid[root] : root, &g);
        for (int i = 0; i < 3; i++)
            MT_CHECK_INT(errs, "armci_msg_group_bcast_scope from group rank 1", pid[root], b[i]);
        armci_msg_group_barrier(&g);

        /* ---- a child: members 0, 2, 4... of g ---- */
        int cn = (n + 1) / 2, *cpid = mt_malloc(sizeof(int) * (size_t)cn);
        for (int i = 0; i < cn; i++)
            cpid[i] = 2 * i;
        ARMCI_Group_create_child(cn, cpid, &child, &g);
        if (myg % 2 == 0) {
            gr = gs = -1;
            ARMCI_Group_rank(&child, &gr);
            ARMCI_Group_size(&child, &gs);
            MT_CHECK_INT(errs, "rank in the child group", myg / 2, gr);
            MT_CHECK_INT(errs, "size of the child group", cn, gs);
            for (int i = 0; i < cn; i++)
                MT_CHECK_INT(errs, "ARMCI_Absolute_id in the child group", pid[2 * i], ARMCI_Absolute_id(&child, i));
            int c = 1;
            armci_msg_group_igop(&c, 1, "+", &child);
            MT_CHECK_INT(errs, "armci_msg_group_igop + in the child group", cn, c);
        }
        ARMCI_Group_free(&child);
        free(cpid);

        /* ---- g as the default group: ids of Group_create are g's ranks ---- */
        ARMCI_Group_set_default(&g);
        ARMCI_Group_get_default(&def);
        gs = -1;
        ARMCI_Group_size(&def, &gs);
        MT_CHECK_INT(errs, "size of the default group after set_default", n, gs);
        int last = n - 1; /* g's last rank: world rank 0 */
        ARMCI_Group_create(1, &last, &d1);
        if (rank == 0) {
            gs = -1;
            ARMCI_Group_size(&d1, &gs);
            MT_CHECK_INT(errs, "size of a group made in the new default group", 1, gs);
            MT_CHECK_INT(errs, "ARMCI_Absolute_id in a group made in the new default group", 0, ARMCI_Absolute_id(&d1, 0));
        }
        ARMCI_Group_free(&d1);
        ARMCI_Group_set_default(&world);
        ARMCI_Group_get_default(&def);
        gs = -1;
        ARMCI_Group_size(&def, &gs);
        MT_CHECK_INT(errs, "size of the default group set back to the world", size, gs);
    }
#ifdef ARMCI_VMPI
    /* vmpi: a process outside the group (odd rank r + 1) puts into member r's block (its last int), with the
     * address member r sent it: any process may address any ARMCI allocation */
    /* In a job of several processes only within a process: an allocation's segments are listed in the
     * processes of its group's members (the window's creation tells them), and rank r + 1's process may hold
     * none. */
    int pa = 0, pb = 0, np = 1;
    int lo = member ? rank : rank - 1; /* the member of the pair */
    if (lo + 1 < size)
        VMPIX_Proc_of(lo, &pa, &np), VMPIX_Proc_of(lo + 1, &pb, &np);
    int near = pa == pb;
    if (member && rank + 1 < size && near) {
        int *addr = gp[myg] + 8 * (myg + 1);
        MPI_Send(&addr, sizeof addr, MPI_BYTE, rank + 1, 21, MPI_COMM_WORLD);
    } else if (!member && near) {
        int *addr = NULL, v = 5000 + rank;
        MPI_Recv(&addr, sizeof addr, MPI_BYTE, rank - 1, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_INT(errs, "ARMCI_Put by a non-member into a group allocation", 0, ARMCI_Put(&v, addr, sizeof v, rank - 1));
    }
    ARMCI_Barrier();
    if (member)
        MT_CHECK_INT(errs, "group allocation's last int (put by a non-member)", rank + 1 < size && near ? 5001 + rank : -1,
                     gp[myg][8 * (myg + 1)]);
#endif
    if (member)
        MT_CHECK_INT(errs, "ARMCI_Free_group", 0, ARMCI_Free_group(gp[myg], &g));
    free(gp);
    ARMCI_Group_free(&g);
    ARMCI_Barrier();
    at_migrate();

#ifdef ARMCI_VMPI
    /* ---- the odd ranks, created by themselves only ---- */
    if (rank % 2) {
        int no = size / 2, *odd = mt_malloc(sizeof(int) * (size_t)no);
        for (int i = 0; i < no; i++)
            odd[i] = 2 * i + 1;
        ARMCI_Group go;
        ARMCI_Group_create(no, odd, &go);
        gr = gs = -1;
        ARMCI_Group_rank(&go, &gr);
        ARMCI_Group_size(&go, &gs);
        MT_CHECK_INT(errs, "rank in a group created by its members only", rank / 2, gr);
        MT_CHECK_INT(errs, "size of a group created by its members only", no, gs);
        int s = rank;
        armci_msg_group_igop(&s, 1, "+", &go);
        MT_CHECK_INT(errs, "armci_msg_group_igop in a group created by its members only", no * no, s);
        ARMCI_Group_free(&go);
        free(odd);
    }
    ARMCI_Barrier();
#endif
    free(pid);
    return at_finish(errs);
}
