/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): communicators, groups, topologies and attributes. */
#ifndef VMPI_API_MPI_COMM_H
#define VMPI_API_MPI_COMM_H

#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
#define MPI_COMM_TYPE_SHARED 1
/* MPI-4's: the split given by the info key "mpi_hw_resource_type" ("mpi_shared_memory": the process, as
 * MPI_COMM_TYPE_SHARED; "machine" or "host": the node; hwloc's levels: "package", "numanode", "l3cache",
 * "core", "pu"...), and the largest resource that splits the group (MPI_Get_hw_resource_info lists them) */
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
#define MPI_UNWEIGHTED ((int *)2)
#define MPI_WEIGHTS_EMPTY ((int *)3)

/* communicators */
VMPI_DECL(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
VMPI_DECL(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
VMPI_DECL(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
VMPI_DECL(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
VMPI_DECL(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
VMPI_DECL(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
VMPI_DECL(int, Comm_free, (MPI_Comm *comm))
VMPI_DECL(int, Comm_test_inter, (MPI_Comm comm, int *flag))
VMPI_DECL(int, Comm_remote_size, (MPI_Comm comm, int *size))
VMPI_DECL(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
VMPI_DECL(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
VMPI_DECL(int, Comm_set_name, (MPI_Comm comm, const char *name))
VMPI_DECL(int, Comm_get_name, (MPI_Comm comm, char *name, int *resultlen))
VMPI_DECL(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                  int tag, MPI_Comm *newintercomm))
VMPI_DECL(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))

/* groups */
VMPI_DECL(int, Group_size, (MPI_Group group, int *size))
VMPI_DECL(int, Group_rank, (MPI_Group group, int *rank))
VMPI_DECL(int, Group_translate_ranks, (MPI_Group group1, int n, const int *ranks1, MPI_Group group2,
                                       int *ranks2))
VMPI_DECL(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
VMPI_DECL(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
VMPI_DECL(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
VMPI_DECL(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
VMPI_DECL(int, Group_incl, (MPI_Group group, int n, const int *ranks, MPI_Group *newgroup))
VMPI_DECL(int, Group_excl, (MPI_Group group, int n, const int *ranks, MPI_Group *newgroup))
VMPI_DECL(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
VMPI_DECL(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
VMPI_DECL(int, Group_free, (MPI_Group *group))

/* process topologies */
VMPI_DECL(int, Cart_create, (MPI_Comm comm, int ndims, const int *dims, const int *periods, int reorder,
                             MPI_Comm *newcomm))
VMPI_DECL(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int *coords))
VMPI_DECL(int, Cart_rank, (MPI_Comm comm, const int *coords, int *rank))
VMPI_DECL(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
VMPI_DECL(int, Cart_sub, (MPI_Comm comm, const int *remain_dims, MPI_Comm *newcomm))
VMPI_DECL(int, Cart_get, (MPI_Comm comm, int maxdims, int *dims, int *periods, int *coords))
VMPI_DECL(int, Cartdim_get, (MPI_Comm comm, int *ndims))
VMPI_DECL(int, Cart_map, (MPI_Comm comm, int ndims, const int *dims, const int *periods, int *newrank))
VMPI_DECL(int, Dims_create, (int nnodes, int ndims, int *dims))
VMPI_DECL(int, Graph_create, (MPI_Comm comm, int nnodes, const int *index, const int *edges, int reorder,
                              MPI_Comm *newcomm))
VMPI_DECL(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int *index, int *edges))
VMPI_DECL(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
VMPI_DECL(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int *neighbors))
VMPI_DECL(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
VMPI_DECL(int, Graph_map, (MPI_Comm comm, int nnodes, const int *index, const int *edges, int *newrank))
VMPI_DECL(int, Dist_graph_create_adjacent, (MPI_Comm comm, int indegree, const int *sources,
                                            const int *sourceweights, int outdegree, const int *destinations,
                                            const int *destweights, MPI_Info info, int reorder,
                                            MPI_Comm *newcomm))
VMPI_DECL(int, Dist_graph_create, (MPI_Comm comm, int n, const int *sources, const int *degrees,
                                   const int *destinations, const int *weights, MPI_Info info, int reorder,
                                   MPI_Comm *newcomm))
VMPI_DECL(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
VMPI_DECL(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int *sources, int *sourceweights,
                                      int maxoutdegree, int *destinations, int *destweights))
VMPI_DECL(int, Topo_test, (MPI_Comm comm, int *status))

/* neighbourhood collectives (on a communicator with a process topology) */
VMPI_DECL(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoallv, (const void *sendbuf, const int *sendcounts, const int *sdispls,
                                    MPI_Datatype sendtype, void *recvbuf, const int *recvcounts, const int *rdispls,
                                    MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoallw, (const void *sendbuf, const int *sendcounts, const MPI_Aint *sdispls,
                                    const MPI_Datatype *sendtypes, void *recvbuf, const int *recvcounts,
                                    const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm))

/* their nonblocking forms */
VMPI_DECL(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoallv, (const void *sendbuf, const int *sendcounts, const int *sdispls,
                                    MPI_Datatype sendtype, void *recvbuf, const int *recvcounts, const int *rdispls,
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoallw, (const void *sendbuf, const int *sendcounts, const MPI_Aint *sdispls,
                                    const MPI_Datatype *sendtypes, void *recvbuf, const int *recvcounts,
                                    const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm, MPI_Request *request))


/* their persistent forms (MPI-4.1 7.8) */
VMPI_DECL(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request))
VMPI_DECL(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                          const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoallv_init, (const void *sendbuf, const int *sendcounts, const int *sdispls,
                                         MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                                         const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoallw_init, (const void *sendbuf, const int *sendcounts, const MPI_Aint *sdispls,
                                         const MPI_Datatype *sendtypes, void *recvbuf, const int *recvcounts,
                                         const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm,
                                         MPI_Info info, MPI_Request *request))
/* their large-count forms (MPI-4.0) */
VMPI_DECL(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                       MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
VMPI_DECL(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
VMPI_DECL(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request *request))
VMPI_DECL(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request *request))
VMPI_DECL(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                       MPI_Request *request))
VMPI_DECL(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                           MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                           const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Info info, MPI_Request *request))
VMPI_DECL(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                           const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                           MPI_Info info, MPI_Request *request))

#endif
