/* SPDX-License-Identifier: BSD-3-Clause */
/* The Sessions model (MPI-4.1 11.3, 7.4.2, 7.6.2), sessions, their process sets and error handlers, and
 * communicators from groups: the implementations behind the generated entry points
 * (<build>/gen/binding/session_entry.c, from src/binding/spec/session.toml), which check the arguments,
 * resolve the handles and report the errors these return (through the session's handler, or the one a
 * constructor is given; check.h's session section).  Sessions need no MPI_Init: a rank with a session open
 * may use the rest of MPI. */
#include <string.h>
#include "binding/impl.h"
#include "mpi/comm/comm_from_group.h"
#include "mpi/core/session.h"
#include "mpi/pt2pt/pt2pt.h"

int vmpi_b_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    return vmpi_session_open(info, errhandler, session);
}

int vmpi_b_Session_finalize(MPI_Session *session)
{
    /* local: the program has completed its communication on the session's communicators (MPI-4.1 11.3.1),
     * and a rank leaves no message of its own pending (its sends return complete or are waited for) */
    vmpi_bsend_release(&vmpi_session_get(*session)->bsend); /* its buffer's messages still go out */
    vmpi_session_close(session);
    return MPI_SUCCESS;
}

int vmpi_b_Session_get_num_psets(vmpi_session *session, MPI_Info info, int *npset_names)
{
    (void)session, (void)info;
    *npset_names = vmpi_pset_count();
    return MPI_SUCCESS;
}

int vmpi_b_Session_get_nth_pset(vmpi_session *session, MPI_Info info, int n, int *pset_len, char *pset_name,
                                vmpi_chk *ck)
{
    (void)session, (void)info;
    const char *name = vmpi_pset_name(n);
    int err = MPI_SUCCESS;
    if (name == NULL) {
        snprintf(ck->why, sizeof ck->why, "n = %d is not in [0, %d)", n, vmpi_pset_count());
        err = MPI_ERR_ARG;
    } else if (*pset_len < 0) {
        snprintf(ck->why, sizeof ck->why, "negative pset_len %d", *pset_len);
        err = MPI_ERR_ARG;
    } else if (*pset_len > 0)
        err = vmpi_chk_ptr(ck, pset_name, "pset_name");
    if (err)
        return err;
    /* pset_len 0 asks for the length only; otherwise the name, cut to fit (MPI-4.1 11.3.2) */
    int len = (int)strlen(name) + 1;
    if (*pset_len > 0) {
        int keep = len < *pset_len ? len - 1 : *pset_len - 1;
        memcpy(pset_name, name, (size_t)keep);
        pset_name[keep] = '\0';
    }
    *pset_len = len;
    return MPI_SUCCESS;
}

/* A new info object with one key. */
static int info_with(const char *key, const char *value, MPI_Info *out)
{
    MPI_Info i = MPI_INFO_NULL;
    int err;
    if ((err = vmpi_info_create(&i)) || (err = vmpi_info_set(i, key, value))) {
        if (i != MPI_INFO_NULL)
            vmpi_info_free(&i);
        return err;
    }
    *out = i;
    return MPI_SUCCESS;
}

int vmpi_b_Session_get_pset_info(vmpi_session *session, const char *pset_name, MPI_Info *info)
{
    (void)session;
    char size[16];
    snprintf(size, sizeof size, "%d", vmpi_pset_size(vmpi_pset_find(pset_name)));
    return info_with("mpi_size", size, info);
}

int vmpi_b_Session_get_info(vmpi_session *session, MPI_Info *info_used)
{
    static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                         "MPI_THREAD_MULTIPLE"};
    /* the one hint vmpi uses: the thread level it provides */
    return info_with("thread_level", levels[session->thread_level], info_used);
}

int vmpi_b_Group_from_session_pset(vmpi_session *session, const char *pset_name, MPI_Group *newgroup)
{
    vmpi_group *g = vmpi_pset_group(vmpi_pset_find(pset_name));
    MPI_Group h = g ? vmpi_group_handle(g) : MPI_GROUP_NULL;
    vmpi_group_unref(g);
    if (h == MPI_GROUP_NULL || vmpi_session_note_group(session, h) != MPI_SUCCESS) {
        if (h != MPI_GROUP_NULL)
            vmpi_group_handle_free(&h);
        return MPI_ERR_NO_MEM;
    }
    *newgroup = h;
    return MPI_SUCCESS;
}

/* A constructor's failure of vmpi_comm_from_group or vmpi_intercomm_from_groups: MPI_ERR_OTHER is a tag
 * collision. */
static int ctor_err(int err, const char *stringtag, vmpi_chk *ck)
{
    if (err == MPI_ERR_OTHER)
        snprintf(ck->why, sizeof ck->why, "a concurrent call's string tag hashes as \"%.64s\" does", stringtag);
    return err;
}

int vmpi_b_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                  MPI_Comm *newcomm, vmpi_chk *ck)
{
    int err = vmpi_comm_from_group(vmpi_group_get(group), stringtag, info, errhandler, newcomm);
    if (err)
        return ctor_err(err, stringtag, ck);
    vmpi_comm_get(*newcomm)->session = vmpi_session_of_group(group); /* it derives from the group's session */
    return MPI_SUCCESS;
}

int vmpi_b_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, vmpi_group *remote_group,
                                        int remote_leader, const char *stringtag, MPI_Info info,
                                        MPI_Errhandler errhandler, MPI_Comm *newintercomm, vmpi_chk *ck)
{
    int err = vmpi_intercomm_from_groups(vmpi_group_get(local_group), local_leader, remote_group, remote_leader,
                                         stringtag, info, errhandler, newintercomm);
    if (err)
        return ctor_err(err, stringtag, ck);
    vmpi_comm_get(*newintercomm)->session = vmpi_session_of_group(local_group);
    return MPI_SUCCESS;
}

/* ---- error handlers ---- */

int vmpi_b_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                     MPI_Errhandler *errhandler)
{
    return vmpi_errh_create((MPI_Comm_errhandler_function *)session_errhandler_fn, errhandler);
}

int vmpi_b_Session_set_errhandler(vmpi_session *session, MPI_Errhandler errhandler)
{
    return vmpi_errh_install(&session->errh, errhandler);
}

int vmpi_b_Session_get_errhandler(vmpi_session *session, MPI_Errhandler *errhandler)
{
    vmpi_errh_ref(session->errh); /* the caller owns a reference, freed with MPI_Errhandler_free */
    *errhandler = session->errh;
    return MPI_SUCCESS;
}

int vmpi_b_Session_call_errhandler(vmpi_session *session, int errorcode)
{
    VMPI_CHK(ck);
    snprintf(ck.why, sizeof ck.why, "raised by MPI_Session_call_errhandler");
    vmpi_session_fail(vmpi_session_handle(session), errorcode, "MPI_Session_call_errhandler", &ck);
    return MPI_SUCCESS; /* the handler was called; the call itself succeeded */
}

/* ---- a session's buffer (MPI-4.1 3.6): its communicators' buffered sends use it before the rank's ---- */

int vmpi_b_Session_attach_buffer(vmpi_session *session, void *buffer, MPI_Count size, vmpi_chk *ck)
{
    int err = vmpi_bsend_attach(&session->bsend, buffer, size);
    if (err == MPI_ERR_BUFFER)
        snprintf(ck->why, sizeof ck->why, "a buffer is already attached to the session");
    return err;
}

int vmpi_b_Session_detach_buffer(vmpi_session *session, void *buffer_addr, MPI_Count *size)
{
    return vmpi_bsend_detach(&session->bsend, buffer_addr, size, "MPI_Session_detach_buffer");
}

int vmpi_b_Session_flush_buffer(vmpi_session *session)
{
    return vmpi_bsend_flush(&session->bsend, "MPI_Session_flush_buffer");
}

int vmpi_b_Session_iflush_buffer(vmpi_session *session, MPI_Request *request)
{
    return vmpi_bsend_iflush(&session->bsend, MPI_COMM_SELF, request);
}
