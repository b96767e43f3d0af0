/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Pack / Unpack / Pack_size and their "external32" forms: the implementations of the generated entry
 * points (spec dt_pack.toml), on MPI_Count counts and positions whichever form was called.  The entry points
 * checked the data representation, the counts, the datatype, the data buffer and the position pointer; here the
 * packed buffer and the room in it. */
#include <limits.h>
#include "binding/impl.h"
#include "mpi/datatype/external32.h"

/* The packed bytes [pos, pos + need) must lie in a buffer of `size` bytes, which may be NULL only when it has
 * none. */
static int chk_room(vmpi_chk *ck, const void *packbuf, MPI_Count pos, MPI_Count need, MPI_Count size,
                    const char *what)
{
    int err = vmpi_chk_array(ck, packbuf, size, "the packed buffer");
    if (err || (pos >= 0 && pos <= size && need <= size - pos))
        return err;
    snprintf(ck->why, sizeof ck->why, "%s %lld bytes at position %lld of a %lld-byte buffer", what,
             (long long)need, (long long)pos, (long long)size);
    return MPI_ERR_TRUNCATE;
}

/* Packing is the data in typemap order, nothing added: count x size bytes. */
int vmpi_b_Pack(const void *inbuf, MPI_Count incount, const vmpi_dtype *datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, vmpi_comm *comm, bool large, vmpi_chk *ck)
{
    (void)comm, (void)large;
    MPI_Count bytes = incount * datatype->size;
    int err = chk_room(ck, outbuf, *position, bytes, outsize, "packing");
    if (err == MPI_SUCCESS) {
        vmpi_dtype_pack(inbuf, incount, datatype, (char *)outbuf + *position, bytes);
        *position += bytes;
    }
    return err;
}

int vmpi_b_Unpack(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  const vmpi_dtype *datatype, vmpi_comm *comm, bool large, vmpi_chk *ck)
{
    (void)comm, (void)large;
    MPI_Count bytes = outcount * datatype->size;
    int err = chk_room(ck, inbuf, *position, bytes, insize, "unpacking");
    if (err == MPI_SUCCESS) {
        vmpi_dtype_unpack((const char *)inbuf + *position, bytes, outbuf, outcount, datatype);
        *position += bytes;
    }
    return err;
}

/* A size the int form's result cannot hold: an error (MPI_Pack_size_c can say it), not MPI_UNDEFINED, which a
 * program would allocate. */
static int size_out(vmpi_chk *ck, MPI_Count bytes, MPI_Count *size, bool large, const char *large_fn)
{
    if (!large && bytes > INT_MAX) {
        snprintf(ck->why, sizeof ck->why, "%lld bytes do not fit an int (%s)", (long long)bytes, large_fn);
        return MPI_ERR_ARG;
    }
    *size = bytes;
    return MPI_SUCCESS;
}

int vmpi_b_Pack_size(MPI_Count incount, const vmpi_dtype *datatype, vmpi_comm *comm, MPI_Count *size, bool large,
                     vmpi_chk *ck)
{
    (void)comm;
    return size_out(ck, incount * datatype->size, size, large, "MPI_Pack_size_c");
}

int vmpi_b_Pack_external(const char datarep[], const void *inbuf, MPI_Count incount, const vmpi_dtype *datatype,
                         void *outbuf, MPI_Count outsize, MPI_Count *position, bool large, vmpi_chk *ck)
{
    (void)large;
    (void)datarep; /* (checked by the entry point: "external32") */
    int err;
    if ((err = chk_room(ck, outbuf, *position, vmpi_ext32_size(datatype, incount), outsize, "packing")) ||
        (err = vmpi_ext32_pack(inbuf, incount, datatype, (char *)outbuf + *position)))
        return err;
    *position += vmpi_ext32_size(datatype, incount);
    return MPI_SUCCESS;
}

int vmpi_b_Unpack_external(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                           MPI_Count outcount, const vmpi_dtype *datatype, bool large, vmpi_chk *ck)
{
    (void)large;
    (void)datarep;
    int err;
    if ((err = chk_room(ck, inbuf, *position, vmpi_ext32_size(datatype, outcount), insize, "unpacking")) ||
        (err = vmpi_ext32_unpack((const char *)inbuf + *position, outbuf, outcount, datatype)))
        return err;
    *position += vmpi_ext32_size(datatype, outcount);
    return MPI_SUCCESS;
}

int vmpi_b_Pack_external_size(const char datarep[], MPI_Count incount, const vmpi_dtype *datatype, MPI_Count *size,
                              bool large, vmpi_chk *ck)
{
    (void)datarep, (void)large, (void)ck; /* (an MPI_Aint holds any size) */
    *size = vmpi_ext32_size(datatype, incount);
    return MPI_SUCCESS;
}
