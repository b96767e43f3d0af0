/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Pack / Unpack / Pack_size and their "external32" forms.  The int and large-count (MPI_X_c) forms share
 * one function each, on MPI_Count counts and positions. */
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

/* An int form's position as the shared functions take it (NULL stays NULL: the check reports it). */
#define POS_IN(p, c) ((p) ? (c = *(p), &(c)) : NULL)

static int pack(const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = chk_pack(&ck, inbuf, incount, dt, &d, position, outsize, outbuf)) ||
        (err = chk_room(&ck, *position, incount * d->size, outsize, "packing")))
        return vmpi_fail(comm, err, fn, &ck);
    MPI_Count bytes = incount * d->size;
    vmpi_dtype_pack(inbuf, incount, d, (char *)outbuf + *position, bytes);
    *position += bytes;
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    MPI_Count p = 0;
    int err = pack(inbuf, incount, dt, outbuf, outsize, POS_IN(position, p), comm, "MPI_Pack");
    if (err == MPI_SUCCESS)
        *position = (int)p; /* within outsize */
    return err;
}

VMPI_WEAK(Pack_c)
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    return pack(inbuf, incount, dt, outbuf, outsize, position, comm, "MPI_Pack_c");
}

static int unpack(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype dt, MPI_Comm comm, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = chk_pack(&ck, outbuf, outcount, dt, &d, position, insize, inbuf)) ||
        (err = chk_room(&ck, *position, outcount * d->size, insize, "unpacking")))
        return vmpi_fail(comm, err, fn, &ck);
    MPI_Count bytes = outcount * d->size;
    vmpi_dtype_unpack((const char *)inbuf + *position, bytes, outbuf, outcount, d);
    *position += bytes;
    return MPI_SUCCESS;
}

VMPI_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype dt,
                MPI_Comm comm)
{
    MPI_Count p = 0;
    int err = unpack(inbuf, insize, POS_IN(position, p), outbuf, outcount, dt, comm, "MPI_Unpack");
    if (err == MPI_SUCCESS)
        *position = (int)p; /* within insize */
    return err;
}

VMPI_WEAK(Unpack_c)
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype dt, MPI_Comm comm)
{
    return unpack(inbuf, insize, position, outbuf, outcount, dt, comm, "MPI_Unpack_c");
}

/* Packing is the data in typemap order, nothing added: count x size bytes. */
static int pack_size(MPI_Count incount, MPI_Datatype dt, MPI_Comm comm, const void *size, MPI_Count *bytes,
                     const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_count(&ck, incount)) ||
        (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(comm, err, fn, &ck);
    *bytes = incount * d->size;
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size)
{
    MPI_Count bytes;
    int err = pack_size(incount, dt, comm, size, &bytes, "MPI_Pack_size");
    if (err == MPI_SUCCESS && bytes > INT_MAX) { /* no int buffer could hold them: MPI_Pack_size_c can say */
        VMPI_CHK(ck);
        snprintf(ck.why, sizeof ck.why, "%lld bytes do not fit an int (MPI_Pack_size_c)", (long long)bytes);
        return vmpi_fail(comm, MPI_ERR_ARG, "MPI_Pack_size", &ck);
    }
    if (err == MPI_SUCCESS)
        *size = (int)bytes;
    return err;
}

VMPI_WEAK(Pack_size_c)
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype dt, MPI_Comm comm, MPI_Count *size)
{
    return pack_size(incount, dt, comm, size, size, "MPI_Pack_size_c");
}

static int pack_external(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf,
                         MPI_Count outsize, MPI_Count *position, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) ||
        (err = chk_pack(&ck, inbuf, incount, dt, &d, position, outsize, outbuf)) ||
        (err = chk_room(&ck, *position, vmpi_ext32_size(d, incount), outsize, "packing")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if ((err = vmpi_ext32_pack(inbuf, incount, d, (char *)outbuf + *position)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, NULL);
    *position += vmpi_ext32_size(d, incount);
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    MPI_Count p = 0;
    int err = pack_external(datarep, inbuf, incount, dt, outbuf, outsize, POS_IN(position, p), "MPI_Pack_external");
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)p;
    return err;
}

VMPI_WEAK(Pack_external_c)
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf,
                         MPI_Count outsize, MPI_Count *position)
{
    return pack_external(datarep, inbuf, incount, dt, outbuf, outsize, position, "MPI_Pack_external_c");
}

static int unpack_external(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype dt, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) ||
        (err = chk_pack(&ck, outbuf, outcount, dt, &d, position, insize, inbuf)) ||
        (err = chk_room(&ck, *position, vmpi_ext32_size(d, outcount), insize, "unpacking")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if ((err = vmpi_ext32_unpack((const char *)inbuf + *position, outbuf, outcount, d)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, NULL);
    *position += vmpi_ext32_size(d, outcount);
    return MPI_SUCCESS;
}

VMPI_WEAK(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                         void *outbuf, int outcount, MPI_Datatype dt)
{
    MPI_Count p = 0;
    int err = unpack_external(datarep, inbuf, insize, POS_IN(position, p), outbuf, outcount, dt,
                              "MPI_Unpack_external");
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)p;
    return err;
}

VMPI_WEAK(Unpack_external_c)
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype dt)
{
    return unpack_external(datarep, inbuf, insize, position, outbuf, outcount, dt, "MPI_Unpack_external_c");
}

static int pack_external_size(const char datarep[], MPI_Count incount, MPI_Datatype dt, const void *size,
                              MPI_Count *bytes, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = chk_datarep(&ck, datarep)) || (err = vmpi_chk_count(&ck, incount)) ||
        (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    *bytes = vmpi_ext32_size(d, incount);
    return MPI_SUCCESS;
}

VMPI_WEAK(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype dt, MPI_Aint *size)
{
    MPI_Count bytes;
    int err = pack_external_size(datarep, incount, dt, size, &bytes, "MPI_Pack_external_size");
    if (err == MPI_SUCCESS)
        *size = (MPI_Aint)bytes;
    return err;
}

VMPI_WEAK(Pack_external_size_c)
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype dt, MPI_Count *size)
{
    return pack_external_size(datarep, incount, dt, size, size, "MPI_Pack_external_size_c");
}
