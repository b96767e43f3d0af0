/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Pack / Unpack / Pack_size and their "external32" forms. */
#include <string.h>
#include "binding/check.h"
#include "mpi/datatype/external32.h"

/* Checks shared by the four pack/unpack calls: count, committed type, buffer, position. */
static int chk_pack(vmpi_chk *ck, const void *buf, MPI_Count count, MPI_Datatype dt, const vmpi_dtype **d,
                    const void *pos, MPI_Count bufsize, const void *packbuf)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, d)) ||
        (err = vmpi_chk_buf(ck, buf, count, *d)) || (err = vmpi_chk_ptr(ck, pos, "position")) ||
        (err = vmpi_chk_nonneg(ck, bufsize, "the packed buffer's size")) ||
        (err = vmpi_chk_array(ck, packbuf, bufsize, "the packed buffer")))
        return err;
    return MPI_SUCCESS;
}

/* The packed bytes [pos, pos + need) must lie in a buffer of `size` bytes. */
static int chk_room(vmpi_chk *ck, MPI_Count pos, MPI_Count need, MPI_Count size, const char *what)
{
    if (pos >= 0 && pos <= size && need <= size - pos)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s %lld bytes at position %lld of a %lld-byte buffer", what,
             (long long)need, (long long)pos, (long long)size);
    return MPI_ERR_TRUNCATE;
}

static int chk_datarep(vmpi_chk *ck, const char *rep)
{
    if (rep != NULL && strcmp(rep, "external32") == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "data representation \"%s\" is not \"external32\"", rep ? rep : "(NULL)");
    return MPI_ERR_ARG;
}

VMPI_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Pack");
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = chk_pack(&ck, inbuf, incount, dt, &d, position, outsize, outbuf)) ||
        (err = chk_room(&ck, *position, incount * d->size, outsize, "packing")))
        return vmpi_fail(comm, err, "MPI_Pack", &ck);
    MPI_Count bytes = incount * d->size;
    vmpi_dtype_pack(inbuf, incount, d, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

VMPI_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype dt,
                MPI_Comm comm)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Unpack");
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = chk_pack(&ck, outbuf, outcount, dt, &d, position, insize, inbuf)) ||
        (err = chk_room(&ck, *position, outcount * d->size, insize, "unpacking")))
        return vmpi_fail(comm, err, "MPI_Unpack", &ck);
    MPI_Count bytes = outcount * d->size;
    vmpi_dtype_unpack((const char *)inbuf + *position, bytes, outbuf, outcount, d);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Pack_size");
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_count(&ck, incount)) ||
        (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(comm, err, "MPI_Pack_size", &ck);
    MPI_Count bytes = incount * d->size; /* packing is the data in typemap order, nothing added */
    if (bytes > INT_MAX) {
        snprintf(ck.why, sizeof ck.why, "%lld bytes do not fit an int", (long long)bytes);
        return vmpi_fail(comm, MPI_ERR_ARG, "MPI_Pack_size", &ck);
    }
    *size = (int)bytes;
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Pack_external");
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) ||
        (err = chk_pack(&ck, inbuf, incount, dt, &d, position, outsize, outbuf)) ||
        (err = chk_room(&ck, *position, vmpi_ext32_size(d, incount), outsize, "packing")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Pack_external", &ck);
    if ((err = vmpi_ext32_pack(inbuf, incount, d, (char *)outbuf + *position)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Pack_external", NULL);
    *position += (MPI_Aint)vmpi_ext32_size(d, incount);
    return MPI_SUCCESS;
}

VMPI_WEAK(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                         void *outbuf, int outcount, MPI_Datatype dt)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Unpack_external");
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) ||
        (err = chk_pack(&ck, outbuf, outcount, dt, &d, position, insize, inbuf)) ||
        (err = chk_room(&ck, *position, vmpi_ext32_size(d, outcount), insize, "unpacking")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Unpack_external", &ck);
    if ((err = vmpi_ext32_unpack((const char *)inbuf + *position, outbuf, outcount, d)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Unpack_external", NULL);
    *position += (MPI_Aint)vmpi_ext32_size(d, outcount);
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype dt, MPI_Aint *size)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Pack_external_size");
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) || (err = vmpi_chk_count(&ck, incount)) ||
        (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Pack_external_size", &ck);
    *size = (MPI_Aint)vmpi_ext32_size(d, incount);
    return MPI_SUCCESS;
}
