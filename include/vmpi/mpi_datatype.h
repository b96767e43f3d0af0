/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): datatypes: sizes and extents, derived-type constructors,
 * envelopes and contents, names, addresses, pack/unpack (also external32). */
#ifndef VMPI_API_MPI_DATATYPE_H
#define VMPI_API_MPI_DATATYPE_H

/* combiners (MPI_Type_get_envelope) */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19

/* subarray / darray */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

VMPI_DECL(int, Type_size, (MPI_Datatype dt, int *size))
VMPI_DECL(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type))
VMPI_DECL(int, Type_size_x, (MPI_Datatype dt, MPI_Count *size))
VMPI_DECL(int, Type_get_extent, (MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent))
VMPI_DECL(int, Type_get_extent_x, (MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent))
VMPI_DECL(int, Type_get_true_extent, (MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent))
VMPI_DECL(int, Type_get_true_extent_x, (MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent))

VMPI_DECL(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype))
VMPI_DECL(int, Type_indexed, (int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hindexed, (int count, const int blocklengths[], const MPI_Aint displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_indexed_block, (int count, int blocklength, const int displacements[],
                                           MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint displacements[],
                                            MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_struct, (int count, const int blocklengths[], const MPI_Aint displacements[],
                                    const MPI_Datatype types[], MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_subarray, (int ndims, const int sizes[], const int subsizes[], const int starts[],
                                      int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_darray, (int size, int rank, int ndims, const int gsizes[], const int distribs[],
                                    const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                                    MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
VMPI_DECL(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_commit, (MPI_Datatype *dt))
VMPI_DECL(int, Type_free, (MPI_Datatype *dt))
VMPI_DECL(int, Type_get_envelope, (MPI_Datatype dt, int *num_integers, int *num_addresses, int *num_datatypes,
                                   int *combiner))
VMPI_DECL(int, Type_get_contents, (MPI_Datatype dt, int max_integers, int max_addresses, int max_datatypes,
                                   int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[]))
VMPI_DECL(int, Type_set_name, (MPI_Datatype dt, const char *name))
VMPI_DECL(int, Type_get_name, (MPI_Datatype dt, char *name, int *resultlen))

VMPI_DECL(int, Get_address, (const void *location, MPI_Aint *address))
VMPI_DECL(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
VMPI_DECL(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))

VMPI_DECL(int, Pack, (const void *inbuf, int incount, MPI_Datatype dt, void *outbuf, int outsize, int *position,
                      MPI_Comm comm))
VMPI_DECL(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype dt,
                        MPI_Comm comm))
VMPI_DECL(int, Pack_size, (int incount, MPI_Datatype dt, MPI_Comm comm, int *size))
VMPI_DECL(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
                               MPI_Aint outsize, MPI_Aint *position))
VMPI_DECL(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                 void *outbuf, int outcount, MPI_Datatype dt))
VMPI_DECL(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype dt, MPI_Aint *size))

/* the large-count forms (MPI-4.1): the int forms return MPI_UNDEFINED for a size or count beyond an int, and
 * MPI_Type_get_envelope / get_contents fail (MPI_ERR_TYPE) on a type made by a large-count constructor */
VMPI_DECL(int, Type_size_c, (MPI_Datatype dt, MPI_Count *size))
VMPI_DECL(int, Type_get_extent_c, (MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent))
VMPI_DECL(int, Type_get_true_extent_c, (MPI_Datatype dt, MPI_Count *true_lb, MPI_Count *true_extent))
VMPI_DECL(int, Type_get_envelope_c, (MPI_Datatype dt, MPI_Count *num_integers, MPI_Count *num_addresses,
                                     MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner))
VMPI_DECL(int, Type_get_contents_c, (MPI_Datatype dt, MPI_Count max_integers, MPI_Count max_addresses,
                                     MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[],
                                     MPI_Aint addresses[], MPI_Count large_counts[], MPI_Datatype datatypes[]))
VMPI_DECL(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                       MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_indexed_c, (MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count blocklengths[],
                                        const MPI_Count displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength, const MPI_Count displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                              const MPI_Count displacements[], MPI_Datatype oldtype,
                                              MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_struct_c, (MPI_Count count, const MPI_Count blocklengths[],
                                      const MPI_Count displacements[], const MPI_Datatype types[],
                                      MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_subarray_c, (int ndims, const MPI_Count sizes[], const MPI_Count subsizes[],
                                        const MPI_Count starts[], int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                                      const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype))
VMPI_DECL(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf, MPI_Count outsize,
                        MPI_Count *position, MPI_Comm comm))
VMPI_DECL(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                          MPI_Datatype dt, MPI_Comm comm))
VMPI_DECL(int, Pack_size_c, (MPI_Count incount, MPI_Datatype dt, MPI_Comm comm, MPI_Count *size))
VMPI_DECL(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype dt,
                                 void *outbuf, MPI_Count outsize, MPI_Count *position))
VMPI_DECL(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                                   void *outbuf, MPI_Count outcount, MPI_Datatype dt))
VMPI_DECL(int, Pack_external_size_c, (const char datarep[], MPI_Count incount, MPI_Datatype dt, MPI_Count *size))

/* Fortran 90 parameterized types and size matching: they resolve to the predefined sized types
 * (MPI_REAL4/8/16, MPI_INTEGER1/2/4/8, MPI_COMPLEX8/16/32), whose envelope says MPI_COMBINER_NAMED. */
VMPI_DECL(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
VMPI_DECL(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
VMPI_DECL(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))

#endif
