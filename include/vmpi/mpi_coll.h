/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): collective operations and reduction operations. */
#ifndef VMPI_API_MPI_COLL_H
#define VMPI_API_MPI_COLL_H

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);

VMPI_DECL(int, Barrier, (MPI_Comm comm))
VMPI_DECL(int, Bcast, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm))
VMPI_DECL(int, Gather, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                        int root, MPI_Comm comm))
VMPI_DECL(int, Gatherv, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                         const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm))
VMPI_DECL(int, Scatter, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                         int root, MPI_Comm comm))
VMPI_DECL(int, Scatterv, (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                          int rcount, MPI_Datatype rdt, int root, MPI_Comm comm))
VMPI_DECL(int, Allgather, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                           MPI_Datatype rdt, MPI_Comm comm))
VMPI_DECL(int, Allgatherv, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                            const int displs[], MPI_Datatype rdt, MPI_Comm comm))
VMPI_DECL(int, Alltoall, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                          MPI_Comm comm))
VMPI_DECL(int, Alltoallv, (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
                           const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm))
VMPI_DECL(int, Alltoallw, (const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
                           void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[],
                           MPI_Comm comm))
VMPI_DECL(int, Reduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                        MPI_Comm comm))
VMPI_DECL(int, Allreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                           MPI_Comm comm))
VMPI_DECL(int, Reduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm))
VMPI_DECL(int, Reduce_scatter_block, (const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                                      MPI_Comm comm))
VMPI_DECL(int, Scan, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm))
VMPI_DECL(int, Exscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm))

/* Nonblocking forms (MPI-3.1 5.12). */
VMPI_DECL(int, Ibarrier, (MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Ibcast, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Igather, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                         int root, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Igatherv, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                          const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iscatter, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                          int root, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iscatterv, (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                           int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iallgather, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                            MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iallgatherv, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                             const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Ialltoall, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                           MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Ialltoallv, (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt,
                            void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm,
                            MPI_Request *req))
VMPI_DECL(int, Ialltoallw, (const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
                            void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[],
                            MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Ireduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                         MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iallreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                            MPI_Request *req))
VMPI_DECL(int, Ireduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                                 MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Ireduce_scatter_block, (const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                                       MPI_Comm comm, MPI_Request *req))
VMPI_DECL(int, Iscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                       MPI_Request *req))
VMPI_DECL(int, Iexscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                         MPI_Request *req))

/* Persistent forms (MPI-4.1 6.13): an inactive request, started with MPI_Start/MPI_Startall. */
VMPI_DECL(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Bcast_init, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request *req))
VMPI_DECL(int, Gather_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                             MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Gatherv_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                              const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info,
                              MPI_Request *req))
VMPI_DECL(int, Scatter_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                              MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Scatterv_init, (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt,
                               void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *req))
VMPI_DECL(int, Allgather_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                                MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Allgatherv_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                                 const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *req))
VMPI_DECL(int, Alltoall_init, (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                               MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Alltoallv_init, (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt,
                                void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rdt,
                                MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Alltoallw_init, (const void *sbuf, const int scounts[], const int sdispls[],
                                const MPI_Datatype sdts[], void *rbuf, const int rcounts[], const int rdispls[],
                                const MPI_Datatype rdts[], MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Reduce_init, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Allreduce_init, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Reduce_scatter_init, (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Reduce_scatter_block_init, (const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                                           MPI_Comm comm, MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Scan_init, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                           MPI_Info info, MPI_Request *req))
VMPI_DECL(int, Exscan_init, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                             MPI_Info info, MPI_Request *req))

/* Operations (MPI-3.1 5.9.5-5.9.7). */
VMPI_DECL(int, Op_create, (MPI_User_function *fn, int commute, MPI_Op *op))
VMPI_DECL(int, Op_free, (MPI_Op *op))
VMPI_DECL(int, Op_commutative, (MPI_Op op, int *commute))
VMPI_DECL(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype dt, MPI_Op op))

/* The large-count forms (MPI-4.0): MPI_Count counts, MPI_Aint displacements. */
VMPI_DECL(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
VMPI_DECL(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
VMPI_DECL(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                           MPI_Comm comm))
VMPI_DECL(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
VMPI_DECL(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                            MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm))
VMPI_DECL(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                              MPI_Comm comm))
VMPI_DECL(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
VMPI_DECL(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                          MPI_Request *request))
VMPI_DECL(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                             MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request *request))
VMPI_DECL(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request))
VMPI_DECL(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request))
VMPI_DECL(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
VMPI_DECL(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request))
VMPI_DECL(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
VMPI_DECL(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          int root, MPI_Comm comm))
VMPI_DECL(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm))
VMPI_DECL(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
VMPI_DECL(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm))
VMPI_DECL(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm))
VMPI_DECL(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm))
VMPI_DECL(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                           int root, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                       MPI_Request *request))
VMPI_DECL(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request))
VMPI_DECL(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
VMPI_DECL(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op))

#endif
