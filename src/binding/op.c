/* SPDX-License-Identifier: BSD-3-Clause */
/* The operation objects: MPI_Op_create(_c) (and the standard ABI's, whose user functions have its types),
 * MPI_Op_free, MPI_Op_commutative. */
#include "binding/abi_hooks.h"
#include "binding/check.h"
#include "mpi/op/op.h"

/* `form`: VMPI_OP_LARGE when fn is an MPI_User_function_c (an MPI_Count length), VMPI_OP_ABI when it is the
 * standard ABI's (mpi/op/op.h). */
static int op_create(void (*fn)(void), int form, int commute, MPI_Op *op, const char *name)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, name);
    int err;
    if ((err = vmpi_chk_ptr(&ck, (const void *)fn, "the user function")) || (err = vmpi_chk_ptr(&ck, op, "op")) ||
        (err = vmpi_op_create(fn, form, commute != 0, op)))
        return vmpi_fail(MPI_COMM_WORLD, err, name, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Op_create)
int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    return op_create((void (*)(void))fn, 0, commute, op, "MPI_Op_create");
}
VMPI_WEAK(Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *fn, int commute, MPI_Op *op)
{
    return op_create((void (*)(void))fn, VMPI_OP_LARGE, commute, op, "MPI_Op_create_c");
}

void vmpi_abi_set_op_call(vmpi_abi_op_call_fn *call) { vmpi_op_abi_call = call; }

int vmpi_abi_op_create(void (*fn)(void), int large, int commute, MPI_Op *op)
{
    return op_create(fn, VMPI_OP_ABI | (large ? VMPI_OP_LARGE : 0), commute, op,
                     large ? "MPI_Op_create_c" : "MPI_Op_create");
}

VMPI_WEAK(Op_free)
int PMPI_Op_free(MPI_Op *op)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Op_free");
    int err;
    if ((err = vmpi_chk_ptr(&ck, op, "op")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Op_free", &ck);
    if (vmpi_op_free(op) != MPI_SUCCESS) {
        snprintf(ck.why, sizeof ck.why, "not a user-defined operation (0x%x)", (unsigned)*op);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Op_commutative");
    int err;
    if ((err = vmpi_chk_ptr(&ck, commute, "commute")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Op_commutative", &ck);
    if (!vmpi_op_valid(op)) {
        snprintf(ck.why, sizeof ck.why, "invalid operation handle 0x%x", (unsigned)op);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_commutative", &ck);
    }
    *commute = vmpi_op_commutative(op);
    return MPI_SUCCESS;
}
