/* SPDX-License-Identifier: BSD-3-Clause */
/* The Sessions model's entry points (MPI-4.1 11.3, 7.4.2, 7.6.2): sessions, their process sets and error
 * handlers, and communicators from groups.  A session's errors go to its handler; those of an invalid
 * session handle, and of the calls with no session, to MPI_COMM_SELF's (MPI-4.1 9.3), but the communicator
 * constructors', which go to the handler they are given when it is valid.  Sessions need no MPI_Init: a rank
 * with a session open may use the rest of MPI.  A call that needs a session when the rank has none open and
 * is outside MPI_Init .. MPI_Finalize is outside MPI, as any other (vmpi_chk_ranked: MPI_ERR_OTHER through
 * MPI_COMM_WORLD's handler); MPI_Session_init and MPI_Session_create_errhandler work at any time. */
#include <string.h>
#include "binding/check.h"
#include "mpi/comm/comm_from_group.h"
#include "mpi/core/session.h"
#include "mpi/pt2pt/pt2pt.h"

static int raise_(MPI_Errhandler h, int obj, int err, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vmpi_err_vraise(h, obj, err, fn, fmt, ap);
    va_end(ap);
    return r;
}

/* Where an error with no object goes: MPI_COMM_SELF (MPI-4.1 9.3); outside MPI, MPI_COMM_WORLD, as every
 * call's outside MPI (check.h). */
static MPI_Comm no_object(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && rk->live ? MPI_COMM_SELF : MPI_COMM_WORLD;
}

/* A failure through `h`'s handler (no_object's when `h` is no live session of the caller). */
static int sess_fail(MPI_Session h, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_session *s = vmpi_session_get(h);
    if (s == NULL)
        return vmpi_fail(no_object(), err, fn, ck);
    return raise_(s->errh, h, err, fn, ck->why[0] ? "%s" : NULL, ck->why);
}

static int chk_session(vmpi_chk *ck, MPI_Session h, vmpi_session **out)
{
    int err = vmpi_chk_ranked(ck);
    if (err)
        return err;
    if ((*out = vmpi_session_get(h)) != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why,
             h == MPI_SESSION_NULL ? "MPI_SESSION_NULL" : "invalid or finalized session handle 0x%x", (unsigned)h);
    return MPI_ERR_SESSION;
}

static int chk_errh(vmpi_chk *ck, MPI_Errhandler h)
{
    if (vmpi_errh_check(h) == MPI_SUCCESS)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "invalid error handler 0x%x", (unsigned)h);
    return MPI_ERR_ARG;
}

static int chk_info_or_null(vmpi_chk *ck, MPI_Info info)
{
    return info == MPI_INFO_NULL ? MPI_SUCCESS : vmpi_chk_info(ck, info);
}

/* A process set's name: one of the sets (*n its index). */
static int chk_pset(vmpi_chk *ck, const char *name, int *n)
{
    int err = vmpi_chk_ptr(ck, name, "pset_name");
    if (err)
        return err;
    if ((*n = vmpi_pset_find(name)) >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "no process set is named \"%.64s\" (vmpi has mpi://WORLD and mpi://SELF)", name);
    return MPI_ERR_ARG;
}

VMPI_WEAK(Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_in_rank(&ck)) || (err = chk_errh(&ck, errhandler)))
        return vmpi_fail(no_object(), err, "MPI_Session_init", &ck);
    if ((err = chk_info_or_null(&ck, info)) || (err = vmpi_chk_ptr(&ck, session, "session")) ||
        (err = vmpi_session_open(info, errhandler, session)))
        return raise_(errhandler, MPI_SESSION_NULL, err, "MPI_Session_init", ck.why[0] ? "%s" : NULL, ck.why);
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, session, "session")))
        return vmpi_fail(no_object(), err, "MPI_Session_finalize", &ck);
    if ((err = chk_session(&ck, *session, &s)))
        return sess_fail(*session, err, "MPI_Session_finalize", &ck);
    /* local: the program has completed its communication on the session's communicators (MPI-4.1 11.3.1),
     * and a rank leaves no message of its own pending (its sends return complete or are waited for) */
    vmpi_bsend_release(&s->bsend); /* its buffer's messages still go out; the last frees its record */
    vmpi_session_close(session);
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_get_num_psets)
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)) || (err = chk_info_or_null(&ck, info)) ||
        (err = vmpi_chk_ptr(&ck, npset_names, "npset_names")))
        return sess_fail(session, err, "MPI_Session_get_num_psets", &ck);
    *npset_names = vmpi_pset_count();
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_get_nth_pset)
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)) || (err = chk_info_or_null(&ck, info)) ||
        (err = vmpi_chk_ptr(&ck, pset_len, "pset_len")))
        return sess_fail(session, err, "MPI_Session_get_nth_pset", &ck);
    const char *name = vmpi_pset_name(n);
    if (name == NULL) {
        snprintf(ck.why, sizeof ck.why, "n = %d is not in [0, %d)", n, vmpi_pset_count());
        err = MPI_ERR_ARG;
    } else if (*pset_len < 0) {
        snprintf(ck.why, sizeof ck.why, "negative pset_len %d", *pset_len);
        err = MPI_ERR_ARG;
    } else if (*pset_len > 0)
        err = vmpi_chk_ptr(&ck, pset_name, "pset_name");
    if (err)
        return sess_fail(session, err, "MPI_Session_get_nth_pset", &ck);
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

VMPI_WEAK(Session_get_pset_info)
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err, n;
    if ((err = chk_session(&ck, session, &s)) || (err = chk_pset(&ck, pset_name, &n)) ||
        (err = vmpi_chk_ptr(&ck, info, "info")))
        return sess_fail(session, err, "MPI_Session_get_pset_info", &ck);
    char size[16];
    snprintf(size, sizeof size, "%d", vmpi_pset_size(n));
    MPI_Info i = MPI_INFO_NULL;
    if ((err = vmpi_info_create(&i)) || (err = vmpi_info_set(i, "mpi_size", size))) {
        if (i != MPI_INFO_NULL)
            vmpi_info_free(&i);
        return sess_fail(session, err, "MPI_Session_get_pset_info", &ck);
    }
    *info = i;
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                         "MPI_THREAD_MULTIPLE"};
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)) || (err = vmpi_chk_ptr(&ck, info_used, "info_used")))
        return sess_fail(session, err, "MPI_Session_get_info", &ck);
    /* the one hint vmpi uses: the thread level it provides */
    MPI_Info i = MPI_INFO_NULL;
    if ((err = vmpi_info_create(&i)) || (err = vmpi_info_set(i, "thread_level", levels[s->thread_level]))) {
        if (i != MPI_INFO_NULL)
            vmpi_info_free(&i);
        return sess_fail(session, err, "MPI_Session_get_info", &ck);
    }
    *info_used = i;
    return MPI_SUCCESS;
}

VMPI_WEAK(Group_from_session_pset)
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err, n;
    if ((err = chk_session(&ck, session, &s)) || (err = chk_pset(&ck, pset_name, &n)) ||
        (err = vmpi_chk_ptr(&ck, newgroup, "newgroup")))
        return sess_fail(session, err, "MPI_Group_from_session_pset", &ck);
    vmpi_group *g = vmpi_pset_group(n);
    MPI_Group h = g ? vmpi_group_handle(g) : MPI_GROUP_NULL;
    vmpi_group_unref(g);
    if (h == MPI_GROUP_NULL || vmpi_session_note_group(s, h) != MPI_SUCCESS) {
        if (h != MPI_GROUP_NULL)
            vmpi_group_handle_free(&h);
        return sess_fail(session, MPI_ERR_NO_MEM, "MPI_Group_from_session_pset", &ck);
    }
    *newgroup = h;
    return MPI_SUCCESS;
}

/* A string tag: at most MPI_MAX_STRINGTAG_LEN - 1 characters. */
static int chk_stringtag(vmpi_chk *ck, const char *tag)
{
    int err = vmpi_chk_ptr(ck, tag, "stringtag");
    if (err == MPI_SUCCESS && strnlen(tag, MPI_MAX_STRINGTAG_LEN) == MPI_MAX_STRINGTAG_LEN) {
        snprintf(ck->why, sizeof ck->why, "stringtag longer than MPI_MAX_STRINGTAG_LEN - 1 (%d) characters",
                 MPI_MAX_STRINGTAG_LEN - 1);
        err = MPI_ERR_ARG;
    }
    return err;
}

/* The caller is a member of `g` (`what`: which group). */
static int chk_member(vmpi_chk *ck, const vmpi_group *g, const char *what)
{
    if (vmpi_group_rank_of(g, vmpi_rank_self()->world_rank) != MPI_UNDEFINED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the calling rank is not in %s", what);
    return MPI_ERR_GROUP;
}

/* The constructors' failure: through `errh` when it is a valid handler inside MPI, else no_object's. */
static int ctor_fail(MPI_Errhandler errh, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || !rk->live || vmpi_errh_check(errh) != MPI_SUCCESS)
        return vmpi_fail(no_object(), err, fn, ck);
    return raise_(errh, MPI_COMM_NULL, err, fn, ck->why[0] ? "%s" : NULL, ck->why);
}

VMPI_WEAK(Comm_create_from_group)
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_group *g;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_group(&ck, group, &g)) ||
        (err = chk_member(&ck, g, "the group")) || (err = chk_stringtag(&ck, stringtag)) ||
        (err = chk_info_or_null(&ck, info)) || (err = chk_errh(&ck, errhandler)) ||
        (err = vmpi_chk_ptr(&ck, newcomm, "newcomm")))
        return ctor_fail(errhandler, err, "MPI_Comm_create_from_group", &ck);
    if ((err = vmpi_comm_from_group(g, stringtag, info, errhandler, newcomm))) {
        if (err == MPI_ERR_OTHER)
            snprintf(ck.why, sizeof ck.why, "a concurrent call's string tag hashes as \"%.64s\" does", stringtag);
        return ctor_fail(errhandler, err, "MPI_Comm_create_from_group", &ck);
    }
    vmpi_comm_get(*newcomm)->session = vmpi_session_of_group(group); /* it derives from the group's session */
    return MPI_SUCCESS;
}

/* Leaders: a rank of their group. */
static int chk_leader(vmpi_chk *ck, int r, const vmpi_group *g, const char *what)
{
    if (r >= 0 && r < g->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s %d is not a rank of its group of size %d", what, r, g->size);
    return MPI_ERR_RANK;
}

static int chk_disjoint(vmpi_chk *ck, const vmpi_group *a, const vmpi_group *b)
{
    for (int i = 0; i < a->size; i++)
        if (vmpi_group_rank_of(b, a->world[i]) != MPI_UNDEFINED) {
            snprintf(ck->why, sizeof ck->why, "rank %d of MPI_COMM_WORLD is in both groups", a->world[i]);
            return MPI_ERR_GROUP;
        }
    return MPI_SUCCESS;
}

VMPI_WEAK(Intercomm_create_from_groups)
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    VMPI_CHK(ck);
    vmpi_group *lg, *rg;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_group(&ck, local_group, &lg)) ||
        (err = vmpi_chk_group(&ck, remote_group, &rg)) || (err = chk_member(&ck, lg, "the local group")) ||
        (err = chk_leader(&ck, local_leader, lg, "local_leader")) ||
        (err = chk_leader(&ck, remote_leader, rg, "remote_leader")) || (err = chk_disjoint(&ck, lg, rg)) ||
        (err = chk_stringtag(&ck, stringtag)) || (err = chk_info_or_null(&ck, info)) ||
        (err = chk_errh(&ck, errhandler)) || (err = vmpi_chk_ptr(&ck, newintercomm, "newintercomm")))
        return ctor_fail(errhandler, err, "MPI_Intercomm_create_from_groups", &ck);
    err = vmpi_intercomm_from_groups(lg, local_leader, rg, remote_leader, stringtag, info, errhandler, newintercomm);
    if (err) {
        if (err == MPI_ERR_OTHER)
            snprintf(ck.why, sizeof ck.why, "a concurrent call's string tag hashes as \"%.64s\" does", stringtag);
        return ctor_fail(errhandler, err, "MPI_Intercomm_create_from_groups", &ck);
    }
    vmpi_comm_get(*newintercomm)->session = vmpi_session_of_group(local_group);
    return MPI_SUCCESS;
}

/* ---- error handlers ---- */

VMPI_WEAK(Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    int err;
    /* allowed before any initialization (MPI-4.1 11.4.1): a rank's call is enough */
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_ptr(&ck, (const void *)session_errhandler_fn, "function")) ||
        (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")) ||
        (err = vmpi_errh_create((MPI_Comm_errhandler_function *)session_errhandler_fn, errhandler)))
        return vmpi_fail(no_object(), err, "MPI_Session_create_errhandler", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)) || (err = chk_errh(&ck, errhandler)))
        return sess_fail(session, err, "MPI_Session_set_errhandler", &ck);
    vmpi_errh_install(&s->errh, errhandler);
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)) || (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")))
        return sess_fail(session, err, "MPI_Session_get_errhandler", &ck);
    vmpi_errh_ref(s->errh); /* the caller owns a reference, freed with MPI_Errhandler_free */
    *errhandler = s->errh;
    return MPI_SUCCESS;
}

VMPI_WEAK(Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err;
    if ((err = chk_session(&ck, session, &s)))
        return sess_fail(session, err, "MPI_Session_call_errhandler", &ck);
    snprintf(ck.why, sizeof ck.why, "raised by MPI_Session_call_errhandler");
    sess_fail(session, errorcode, "MPI_Session_call_errhandler", &ck);
    return MPI_SUCCESS; /* the handler was called; the call itself succeeded */
}

/* ---- a session's buffer (MPI-4.1 3.6): its communicators' buffered sends use it before the rank's ---- */

static int session_attach(MPI_Session session, void *buffer, MPI_Count size, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err = chk_session(&ck, session, &s);
    if (!err)
        err = vmpi_chk_bsend_buf(&ck, buffer, size);
    if (!err && (err = vmpi_bsend_attach(&s->bsend, buffer, size)) == MPI_ERR_BUFFER)
        snprintf(ck.why, sizeof ck.why, "a buffer is already attached to the session");
    return err ? sess_fail(session, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Session_attach_buffer)
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return session_attach(session, buffer, size, "MPI_Session_attach_buffer");
}

VMPI_WEAK(Session_attach_buffer_c)
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    return session_attach(session, buffer, size, "MPI_Session_attach_buffer_c");
}

/* `user_size`: the program's size pointer, only checked (the two forms write it themselves) */
static int session_detach(MPI_Session session, void *buffer_addr, const void *user_size, MPI_Count *size,
                          const char *fn)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err = chk_session(&ck, session, &s);
    if (!err)
        err = vmpi_chk_ptr(&ck, buffer_addr, "buffer_addr");
    if (!err)
        err = vmpi_chk_ptr(&ck, user_size, "size");
    if (!err)
        err = vmpi_bsend_detach(&s->bsend, buffer_addr, size, fn);
    return err ? sess_fail(session, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Session_detach_buffer)
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    MPI_Count n = 0;
    int err = session_detach(session, buffer_addr, size, &n, "MPI_Session_detach_buffer");
    if (!err)
        *size = vmpi_count_int(n);
    return err;
}

VMPI_WEAK(Session_detach_buffer_c)
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    MPI_Count n = 0;
    int err = session_detach(session, buffer_addr, size, &n, "MPI_Session_detach_buffer_c");
    if (!err)
        *size = n;
    return err;
}

VMPI_WEAK(Session_flush_buffer)
int PMPI_Session_flush_buffer(MPI_Session session)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err = chk_session(&ck, session, &s);
    if (!err)
        err = vmpi_bsend_flush(&s->bsend, "MPI_Session_flush_buffer");
    return err ? sess_fail(session, err, "MPI_Session_flush_buffer", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Session_iflush_buffer)
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    VMPI_CHK(ck);
    vmpi_session *s;
    int err = chk_session(&ck, session, &s);
    if (!err)
        err = vmpi_chk_ptr(&ck, request, "request");
    if (!err)
        err = vmpi_bsend_iflush(&s->bsend, MPI_COMM_SELF, request);
    return err ? sess_fail(session, err, "MPI_Session_iflush_buffer", &ck) : MPI_SUCCESS;
}
