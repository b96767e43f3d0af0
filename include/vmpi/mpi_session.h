/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): the Sessions model (MPI-4.1 11.3): sessions, process sets
 * and communicators made from groups without a parent communicator, and a session's buffer for buffered
 * sends. */
#ifndef VMPI_API_MPI_SESSION_H
#define VMPI_API_MPI_SESSION_H

typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x30000000)

#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256

typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);

VMPI_DECL(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
VMPI_DECL(int, Session_finalize, (MPI_Session *session))
VMPI_DECL(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
VMPI_DECL(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name))
VMPI_DECL(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
VMPI_DECL(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
VMPI_DECL(int, Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup))
VMPI_DECL(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
                                        MPI_Errhandler errhandler, MPI_Comm *newcomm))
VMPI_DECL(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                              int remote_leader, const char *stringtag, MPI_Info info,
                                              MPI_Errhandler errhandler, MPI_Comm *newintercomm))
VMPI_DECL(int, Session_create_errhandler, (MPI_Session_errhandler_function *session_errhandler_fn,
                                           MPI_Errhandler *errhandler))
VMPI_DECL(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
VMPI_DECL(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
VMPI_DECL(int, Session_call_errhandler, (MPI_Session session, int errorcode))
VMPI_DECL(MPI_Fint, Session_c2f, (MPI_Session session))
VMPI_DECL(MPI_Session, Session_f2c, (MPI_Fint session))
VMPI_DECL(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
VMPI_DECL(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
VMPI_DECL(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
VMPI_DECL(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr, MPI_Count *size))
VMPI_DECL(int, Session_flush_buffer, (MPI_Session session))
VMPI_DECL(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))

#endif
