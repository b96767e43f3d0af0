/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi: the C interface of MPI-3.1.  This file holds the types, constants, environment, point-to-point,
 * requests and error handling; each other area has its header in include/vmpi/, included at the end.
 *
 * Handles are integers (MPICH-style): predefined handles are compile-time constants and the Fortran
 * conversion is the identity.  A handle is (kind << 26) | index; index 0 of every kind is its null handle,
 * so a handle of the wrong kind is always detected. */
#ifndef VMPI_MPI_H
#define VMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the API stays exported when vmpi is built with hidden visibility */
#endif

#define VMPI 1
#define VMPI_VERSION_STRING "0.1.0"
#define MPI_VERSION 4
#define MPI_SUBVERSION 1

typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Request;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Message;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int vmpi_cancelled;
    MPI_Count vmpi_count; /* bytes received */
} MPI_Status;

#define MPI_STATUS_SIZE 6 /* in Fortran INTEGERs */

/* mpi_f08's TYPE(MPI_Status) as C sees it (tools/mpistd/emit_f08.py: the same six INTEGERs as the Fortran
 * array, the count's low and high halves last) */
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint vmpi_cancelled;
    MPI_Fint vmpi_count_lo, vmpi_count_hi;
} MPI_F08_status;

/* ---- handle kinds and null handles ---- */
#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_COMM_WORLD ((MPI_Comm)0x04000001)
#define MPI_COMM_SELF ((MPI_Comm)0x04000002)
#define MPI_GROUP_NULL ((MPI_Group)0x08000000)
#define MPI_GROUP_EMPTY ((MPI_Group)0x08000001)
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_REQUEST_NULL ((MPI_Request)0x10000000)
#define MPI_OP_NULL ((MPI_Op)0x14000000)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x18000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x18000001)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x18000002)
#define MPI_ERRORS_ABORT ((MPI_Errhandler)0x18000003)
#define MPI_INFO_NULL ((MPI_Info)0x1c000000)
#define MPI_MESSAGE_NULL ((MPI_Message)0x20000000)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x20000001)

/* ---- predefined datatypes (index order is the table in src/mpi/datatype/dt_builtin.c) ---- */
#define VMPI_DT(i) ((MPI_Datatype)(0x0c000000 | (i)))
#define MPI_CHAR VMPI_DT(1)
#define MPI_SIGNED_CHAR VMPI_DT(2)
#define MPI_UNSIGNED_CHAR VMPI_DT(3)
#define MPI_BYTE VMPI_DT(4)
#define MPI_WCHAR VMPI_DT(5)
#define MPI_SHORT VMPI_DT(6)
#define MPI_UNSIGNED_SHORT VMPI_DT(7)
#define MPI_INT VMPI_DT(8)
#define MPI_UNSIGNED VMPI_DT(9)
#define MPI_LONG VMPI_DT(10)
#define MPI_UNSIGNED_LONG VMPI_DT(11)
#define MPI_LONG_LONG_INT VMPI_DT(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG VMPI_DT(13)
#define MPI_FLOAT VMPI_DT(14)
#define MPI_DOUBLE VMPI_DT(15)
#define MPI_LONG_DOUBLE VMPI_DT(16)
#define MPI_C_BOOL VMPI_DT(17)
#define MPI_INT8_T VMPI_DT(18)
#define MPI_INT16_T VMPI_DT(19)
#define MPI_INT32_T VMPI_DT(20)
#define MPI_INT64_T VMPI_DT(21)
#define MPI_UINT8_T VMPI_DT(22)
#define MPI_UINT16_T VMPI_DT(23)
#define MPI_UINT32_T VMPI_DT(24)
#define MPI_UINT64_T VMPI_DT(25)
#define MPI_AINT VMPI_DT(26)
#define MPI_OFFSET VMPI_DT(27)
#define MPI_COUNT VMPI_DT(28)
#define MPI_C_FLOAT_COMPLEX VMPI_DT(29)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX VMPI_DT(30)
#define MPI_C_LONG_DOUBLE_COMPLEX VMPI_DT(31)
#define MPI_PACKED VMPI_DT(32)
#define MPI_FLOAT_INT VMPI_DT(33)
#define MPI_DOUBLE_INT VMPI_DT(34)
#define MPI_LONG_INT VMPI_DT(35)
#define MPI_SHORT_INT VMPI_DT(36)
#define MPI_2INT VMPI_DT(37)
#define MPI_LONG_DOUBLE_INT VMPI_DT(38)
#define MPI_CXX_BOOL VMPI_DT(39)
#define MPI_CXX_FLOAT_COMPLEX VMPI_DT(40)
#define MPI_CXX_DOUBLE_COMPLEX VMPI_DT(41)
#define MPI_CXX_LONG_DOUBLE_COMPLEX VMPI_DT(42)
#define MPI_CHARACTER VMPI_DT(43)
#define MPI_LOGICAL VMPI_DT(44)
#define MPI_INTEGER VMPI_DT(45)
#define MPI_REAL VMPI_DT(46)
#define MPI_DOUBLE_PRECISION VMPI_DT(47)
#define MPI_COMPLEX VMPI_DT(48)
#define MPI_DOUBLE_COMPLEX VMPI_DT(49)
#define MPI_INTEGER1 VMPI_DT(50)
#define MPI_INTEGER2 VMPI_DT(51)
#define MPI_INTEGER4 VMPI_DT(52)
#define MPI_INTEGER8 VMPI_DT(53)
#define MPI_REAL4 VMPI_DT(54)
#define MPI_REAL8 VMPI_DT(55)
#define MPI_REAL16 VMPI_DT(56)
#define MPI_COMPLEX8 VMPI_DT(57)
#define MPI_COMPLEX16 VMPI_DT(58)
#define MPI_COMPLEX32 VMPI_DT(59)
#define MPI_2INTEGER VMPI_DT(60)
#define MPI_2REAL VMPI_DT(61)
#define MPI_2DOUBLE_PRECISION VMPI_DT(62)
#define MPI_LB VMPI_DT(63)
#define MPI_UB VMPI_DT(64)
#define MPI_INTEGER16 VMPI_DT(65)
#define VMPI_DT_BUILTIN_COUNT 66

/* ---- predefined reduction operations ---- */
#define MPI_MAX ((MPI_Op)0x14000001)
#define MPI_MIN ((MPI_Op)0x14000002)
#define MPI_SUM ((MPI_Op)0x14000003)
#define MPI_PROD ((MPI_Op)0x14000004)
#define MPI_LAND ((MPI_Op)0x14000005)
#define MPI_BAND ((MPI_Op)0x14000006)
#define MPI_LOR ((MPI_Op)0x14000007)
#define MPI_BOR ((MPI_Op)0x14000008)
#define MPI_LXOR ((MPI_Op)0x14000009)
#define MPI_BXOR ((MPI_Op)0x1400000a)
#define MPI_MINLOC ((MPI_Op)0x1400000b)
#define MPI_MAXLOC ((MPI_Op)0x1400000c)
#define MPI_REPLACE ((MPI_Op)0x1400000d)
#define MPI_NO_OP ((MPI_Op)0x1400000e)

/* ---- special values ---- */
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0x24000000
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_BSEND_OVERHEAD 96
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* ---- error classes ---- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_GROUP 8
#define MPI_ERR_OP 9
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_DIMS 11
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
#define MPI_ERR_SESSION 58 /* MPI-4: an invalid session handle */
/* MPI_T's (MPI-4.1 15.3.10): its functions return them */
#define MPI_T_ERR_CANNOT_INIT 59
#define MPI_T_ERR_NOT_ACCESSIBLE 60
#define MPI_T_ERR_NOT_INITIALIZED 61
#define MPI_T_ERR_NOT_SUPPORTED 62
#define MPI_T_ERR_MEMORY 63
#define MPI_T_ERR_INVALID 64
#define MPI_T_ERR_INVALID_INDEX 65
#define MPI_T_ERR_INVALID_ITEM 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_INVALID_HANDLE 68
#define MPI_T_ERR_INVALID_NAME 69
#define MPI_T_ERR_OUT_OF_HANDLES 70
#define MPI_T_ERR_OUT_OF_SESSIONS 71
#define MPI_T_ERR_CVAR_SET_NOT_NOW 72
#define MPI_T_ERR_CVAR_SET_NEVER 73
#define MPI_T_ERR_PVAR_NO_WRITE 74
#define MPI_T_ERR_PVAR_NO_STARTSTOP 75
#define MPI_T_ERR_PVAR_NO_ATOMIC 76
#define MPI_ERR_LASTCODE 0x3fffffff

/* ---- functions; every MPI_X is a weak alias of PMPI_X ---- */
#define VMPI_DECL(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

VMPI_DECL(int, Init, (int *argc, char ***argv))
VMPI_DECL(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
VMPI_DECL(int, Initialized, (int *flag))
VMPI_DECL(int, Finalize, (void))
VMPI_DECL(int, Finalized, (int *flag))
VMPI_DECL(int, Abort, (MPI_Comm comm, int errorcode))
VMPI_DECL(int, Query_thread, (int *provided))
VMPI_DECL(int, Is_thread_main, (int *flag))
VMPI_DECL(int, Get_version, (int *version, int *subversion))
VMPI_DECL(int, Get_library_version, (char *version, int *resultlen))
VMPI_DECL(int, Get_processor_name, (char *name, int *resultlen))
VMPI_DECL(int, Get_hw_resource_info, (MPI_Info *hw_info))
VMPI_DECL(double, Wtime, (void))
VMPI_DECL(double, Wtick, (void))
VMPI_DECL(int, Comm_rank, (MPI_Comm comm, int *rank))
VMPI_DECL(int, Comm_size, (MPI_Comm comm, int *size))

VMPI_DECL(int, Send, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Ssend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Rsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Bsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Recv, (void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                      MPI_Status *status))
VMPI_DECL(int, Isend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                       MPI_Request *req))
VMPI_DECL(int, Issend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                        MPI_Request *req))
VMPI_DECL(int, Irsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                        MPI_Request *req))
VMPI_DECL(int, Ibsend, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                        MPI_Request *req))
VMPI_DECL(int, Irecv, (void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                       MPI_Request *req))
VMPI_DECL(int, Sendrecv, (const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                          int rcount, MPI_Datatype rdt, int source, int rtag, MPI_Comm comm, MPI_Status *status))
VMPI_DECL(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype dt, int dest, int stag, int source,
                                  int rtag, MPI_Comm comm, MPI_Status *status))
VMPI_DECL(int, Isendrecv, (const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                           int rcount, MPI_Datatype rdt, int source, int rtag, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype dt, int dest, int stag, int source,
                                   int rtag, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Buffer_attach, (void *buffer, int size))
VMPI_DECL(int, Buffer_detach, (void *buffer_addr, int *size))
VMPI_DECL(int, Buffer_flush, (void))
VMPI_DECL(int, Buffer_iflush, (MPI_Request *request))
VMPI_DECL(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
VMPI_DECL(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
VMPI_DECL(int, Comm_flush_buffer, (MPI_Comm comm))
VMPI_DECL(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
VMPI_DECL(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
VMPI_DECL(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
VMPI_DECL(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                         MPI_Status *status))
VMPI_DECL(int, Mrecv, (void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Status *status))
VMPI_DECL(int, Imrecv, (void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Request *req))
VMPI_DECL(int, Send_init, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                           MPI_Request *req))
VMPI_DECL(int, Ssend_init, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                            MPI_Request *req))
VMPI_DECL(int, Rsend_init, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                            MPI_Request *req))
VMPI_DECL(int, Bsend_init, (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                            MPI_Request *req))
VMPI_DECL(int, Recv_init, (void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                           MPI_Request *req))
VMPI_DECL(int, Start, (MPI_Request *req))
VMPI_DECL(int, Startall, (int count, MPI_Request *reqs))
/* partitioned communication (MPI-4.0): `count` elements per partition */
VMPI_DECL(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                            MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int source, int tag,
                            MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Pready, (int partition, MPI_Request req))
VMPI_DECL(int, Pready_range, (int partition_low, int partition_high, MPI_Request req))
VMPI_DECL(int, Pready_list, (int length, const int partitions[], MPI_Request req))
VMPI_DECL(int, Parrived, (MPI_Request req, int partition, int *flag))
/* the large-count forms (MPI-4.0): the same functions with MPI_Count counts and sizes */
VMPI_DECL(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm))
VMPI_DECL(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                        MPI_Status *status))
VMPI_DECL(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                         MPI_Request *req))
VMPI_DECL(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                          MPI_Request *req))
VMPI_DECL(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                          MPI_Request *req))
VMPI_DECL(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                          MPI_Request *req))
VMPI_DECL(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                         MPI_Request *req))
VMPI_DECL(int, Sendrecv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                            MPI_Count rcount, MPI_Datatype rdt, int source, int rtag, MPI_Comm comm,
                            MPI_Status *status))
VMPI_DECL(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype dt, int dest, int stag, int source,
                                    int rtag, MPI_Comm comm, MPI_Status *status))
VMPI_DECL(int, Isendrecv_c, (const void *sbuf, MPI_Count scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rdt, int source, int rtag, MPI_Comm comm,
                             MPI_Request *req))
VMPI_DECL(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype dt, int dest, int stag, int source,
                                     int rtag, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Buffer_attach_c, (void *buffer, MPI_Count size))
VMPI_DECL(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
VMPI_DECL(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
VMPI_DECL(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
VMPI_DECL(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *message, MPI_Status *status))
VMPI_DECL(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *message, MPI_Request *req))
VMPI_DECL(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                             MPI_Request *req))
VMPI_DECL(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                              MPI_Request *req))
VMPI_DECL(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                              MPI_Request *req))
VMPI_DECL(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                              MPI_Request *req))
VMPI_DECL(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                             MPI_Request *req))
VMPI_DECL(int, Wait, (MPI_Request *req, MPI_Status *status))
VMPI_DECL(int, Test, (MPI_Request *req, int *flag, MPI_Status *status))
VMPI_DECL(int, Waitall, (int count, MPI_Request *reqs, MPI_Status *statuses))
VMPI_DECL(int, Testall, (int count, MPI_Request *reqs, int *flag, MPI_Status *statuses))
VMPI_DECL(int, Waitany, (int count, MPI_Request *reqs, int *index, MPI_Status *status))
VMPI_DECL(int, Testany, (int count, MPI_Request *reqs, int *index, int *flag, MPI_Status *status))
VMPI_DECL(int, Waitsome, (int incount, MPI_Request *reqs, int *outcount, int *indices,
                          MPI_Status *statuses))
VMPI_DECL(int, Testsome, (int incount, MPI_Request *reqs, int *outcount, int *indices,
                          MPI_Status *statuses))
VMPI_DECL(int, Request_free, (MPI_Request *req))
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
VMPI_DECL(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                                MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
VMPI_DECL(int, Grequest_complete, (MPI_Request request))
VMPI_DECL(int, Request_get_status, (MPI_Request req, int *flag, MPI_Status *status))
VMPI_DECL(int, Request_get_status_any, (int count, const MPI_Request array_of_requests[], int *index, int *flag,
                                        MPI_Status *status))
VMPI_DECL(int, Request_get_status_all, (int count, const MPI_Request array_of_requests[], int *flag,
                                        MPI_Status array_of_statuses[]))
VMPI_DECL(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[], int *outcount,
                                         int array_of_indices[], MPI_Status array_of_statuses[]))
VMPI_DECL(int, Cancel, (MPI_Request *req))
VMPI_DECL(int, Test_cancelled, (const MPI_Status *status, int *flag))
VMPI_DECL(int, Get_count, (const MPI_Status *status, MPI_Datatype dt, int *count))
VMPI_DECL(int, Get_elements, (const MPI_Status *status, MPI_Datatype dt, int *count))
VMPI_DECL(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype dt, MPI_Count *count))
VMPI_DECL(int, Status_set_elements, (MPI_Status *status, MPI_Datatype dt, int count))
VMPI_DECL(int, Status_get_source, (const MPI_Status *status, int *source))
VMPI_DECL(int, Status_get_tag, (const MPI_Status *status, int *tag))
VMPI_DECL(int, Status_get_error, (const MPI_Status *status, int *error))
VMPI_DECL(int, Status_set_source, (MPI_Status *status, int source))
VMPI_DECL(int, Status_set_tag, (MPI_Status *status, int tag))
VMPI_DECL(int, Status_set_error, (MPI_Status *status, int error))
VMPI_DECL(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype dt, MPI_Count count))
VMPI_DECL(int, Status_set_cancelled, (MPI_Status *status, int flag))
VMPI_DECL(int, Get_count_c, (const MPI_Status *status, MPI_Datatype dt, MPI_Count *count))
VMPI_DECL(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype dt, MPI_Count *count))
VMPI_DECL(int, Status_set_elements_c, (MPI_Status *status, MPI_Datatype dt, MPI_Count count))

typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
VMPI_DECL(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler))
VMPI_DECL(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
VMPI_DECL(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
VMPI_DECL(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
VMPI_DECL(int, Errhandler_free, (MPI_Errhandler *errhandler))
VMPI_DECL(int, Error_string, (int errorcode, char *string, int *resultlen))
VMPI_DECL(int, Error_class, (int errorcode, int *errorclass))

/* C/Fortran handle conversion (the identity: handles are integers) and the profiling control */
VMPI_DECL(MPI_Fint, Comm_c2f, (MPI_Comm comm))
VMPI_DECL(MPI_Comm, Comm_f2c, (MPI_Fint comm))
VMPI_DECL(MPI_Fint, Group_c2f, (MPI_Group group))
VMPI_DECL(MPI_Group, Group_f2c, (MPI_Fint group))
VMPI_DECL(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
VMPI_DECL(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
VMPI_DECL(MPI_Fint, Request_c2f, (MPI_Request request))
VMPI_DECL(MPI_Request, Request_f2c, (MPI_Fint request))
VMPI_DECL(MPI_Fint, Op_c2f, (MPI_Op op))
VMPI_DECL(MPI_Op, Op_f2c, (MPI_Fint op))
VMPI_DECL(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
VMPI_DECL(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
VMPI_DECL(MPI_Fint, Info_c2f, (MPI_Info info))
VMPI_DECL(MPI_Info, Info_f2c, (MPI_Fint info))
VMPI_DECL(MPI_Fint, Message_c2f, (MPI_Message message))
VMPI_DECL(MPI_Message, Message_f2c, (MPI_Fint message))
VMPI_DECL(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
VMPI_DECL(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
VMPI_DECL(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
VMPI_DECL(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
VMPI_DECL(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
VMPI_DECL(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
VMPI_DECL(int, Pcontrol, (const int level, ...))

/* The other areas, one header each (installed in include/vmpi/). */
#include "vmpi/mpi_datatype.h"
#include "vmpi/mpi_coll.h"
#include "vmpi/mpi_comm.h"
#include "vmpi/mpi_info.h"
#include "vmpi/mpi_tool.h"
#include "vmpi/mpi_rma.h"
#include "vmpi/mpi_session.h"
#include "vmpi/mpix_am.h"
#include "vmpi/mpi_ampi.h"
#include "vmpi/mpi_iso.h"
#include "vmpi/mpi_removed.h"

#undef VMPI_DECL

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* VMPI_MPI_H */
