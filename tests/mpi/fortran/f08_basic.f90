! SPDX-License-Identifier: BSD-3-Clause
! mpi_f08: handles as types (==, /=), TYPE(MPI_Status) fields, optional IERROR, inputs by value,
! MPI_STATUS_IGNORE, MPI_BOTTOM (with MPI_F_sync_reg) and MPI_IN_PLACE, large-count specifics (point-to-point,
! datatypes, collectives), the status conversions, a user operation with mpi_f08's interface (TYPE(C_PTR),
! VALUE buffers) in an int and a large-count reduction, one of MPI_Op_create_c, a keyval whose callbacks take
! TYPE(MPI_Comm), names, MPI_SIZEOF, requests across migration points, and module variables per rank.
module f08_basic_state
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: me = -1, copies = 0
contains
  ! inoutvec(i) = max(invec(i), inoutvec(i)) on integers
  subroutine imax(invec, inoutvec, len, datatype)
    use mpi_f08
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(a, b)
  end subroutine

  ! the same with MPI_User_function_c's interface (MPI_Op_create_c): an INTEGER(KIND=MPI_COUNT_KIND) length
  subroutine imax_c(invec, inoutvec, len, datatype)
    use mpi_f08
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(a, b)
  end subroutine

  subroutine copy_fn(oldcomm, keyval, extra, valin, valout, flag, ierror)
    use mpi_f08
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    copies = copies + 1
    valout = valin * extra
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine
end module

program f08_basic
  use mpi_f08
  use f08_basic_state
  implicit none
  integer :: rank, np, left, right, got, val, errs, n, step, key, ierr, i
  integer :: all(64)
  integer(kind=MPI_COUNT_KIND) :: cnts(64)
  integer(kind=MPI_ADDRESS_KIND) :: dsps(64)
  type(MPI_Status) :: st, sts(2), st2
  integer :: fst(MPI_STATUS_SIZE)
  integer(kind=MPI_COUNT_KIND) :: csize, ccount
  type(MPI_Datatype) :: big, abst
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: dup, dup2
  type(MPI_Op) :: op, op_c
  character(len=MPI_MAX_OBJECT_NAME) :: name
  double precision :: d(3)
  integer(kind=MPI_ADDRESS_KIND) :: aval, extra
  logical :: flag
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  me = rank
  left = mod(rank + np - 1, np)
  right = mod(rank + 1, np)
  do step = 1, 4
    call MPI_Sendrecv(rank * 10 + step, 1, MPI_INTEGER, right, step, got, 1, MPI_INTEGER, left, step, &
                      MPI_COMM_WORLD, st)
    if (got /= left * 10 + step .or. st%MPI_SOURCE /= left .or. st%MPI_TAG /= step) errs = errs + 1
    d = [1d0, dble(step), dble(rank)]
    call MPI_Irecv(d, 3, MPI_DOUBLE_PRECISION, left, 4, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend([1d0, dble(step), dble(rank)], 3, MPI_DOUBLE_PRECISION, right, 4, MPI_COMM_WORLD, reqs(2))
    call AMPI_Migrate(MPI_INFO_NULL, ierr)   ! both requests in flight
    call MPI_Waitall(2, reqs, sts)
    if (d(2) /= step .or. d(3) /= left .or. reqs(1) /= MPI_REQUEST_NULL .or. sts(1)%MPI_TAG /= 4) errs = errs + 1
    if (me /= rank) errs = errs + 1
  end do
  call MPI_Recv(got, 0, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  ! inputs by value, MPI_Cancel's request among them (which C takes through a pointer): a receive cancelled
  call MPI_Irecv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, reqs(1))
  call MPI_Request_get_status(reqs(1), flag, st)
  if (flag) errs = errs + 1
  call MPI_Cancel(reqs(1))
  call MPI_Wait(reqs(1), st)
  call MPI_Test_cancelled(st, flag)
  if (.not. flag .or. reqs(1) /= MPI_REQUEST_NULL) errs = errs + 1
  ! MPI_BOTTOM (the first of the sentinels' block) with an absolute-address datatype
  call MPI_Get_address(val, aval)
  call MPI_Type_create_hindexed(1, [1], [aval], MPI_INTEGER, abst)
  call MPI_Type_commit(abst)
  val = rank + 1000
  got = -1
  call MPI_F_sync_reg(val)   ! else -O2 may keep val in a register: the call does not name it
  call MPI_Sendrecv(MPI_BOTTOM, 1, abst, right, 78, got, 1, MPI_INTEGER, left, 78, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  if (got /= left + 1000) errs = errs + 1
  call MPI_Type_free(abst)
  ! the large-count specifics: counts of kind MPI_COUNT_KIND pick MPI_Sendrecv_f08c (MPI_Sendrecv_c)
  d = dble(rank)
  call MPI_Sendrecv_replace(d, 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, right, 9, left, 9, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  if (any(d /= left) .or. n /= 3 .or. st%MPI_SOURCE /= left) errs = errs + 1
  ! TYPE(MPI_Status) to the INTEGER array and back (MPI_Status_f082f, MPI_Status_f2f08)
  call MPI_Status_f082f(st, fst)
  if (fst(MPI_SOURCE) /= left .or. fst(MPI_TAG) /= 9) errs = errs + 1
  call MPI_Status_f2f08(fst, st2, ierr)
  call MPI_Get_count(st2, MPI_DOUBLE_PRECISION, ccount)   ! MPI_Get_count_f08c
  if (ierr /= MPI_SUCCESS .or. ccount /= 3 .or. st2%MPI_SOURCE /= left .or. st2%MPI_TAG /= 9) errs = errs + 1
  ! the datatype specifics of kind MPI_COUNT_KIND: 6 GiB of bytes, never allocated
  call MPI_Type_contiguous(3_MPI_COUNT_KIND * 2_MPI_COUNT_KIND**31, MPI_BYTE, big)
  call MPI_Type_size(big, csize)                          ! MPI_Type_size_f08c
  call MPI_Type_size(big, n)                              ! the int one: MPI_UNDEFINED
  if (csize /= 3_MPI_COUNT_KIND * 2_MPI_COUNT_KIND**31 .or. n /= MPI_UNDEFINED) errs = errs + 1
  call MPI_Type_free(big)
  val = rank
  call MPI_Allreduce(MPI_IN_PLACE, val, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (val /= np * (np - 1) / 2) errs = errs + 1
  call MPI_Op_create(imax, .true., op)
  val = np - 1 - rank
  call MPI_Allreduce(MPI_IN_PLACE, val, 1, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (val /= np - 1 .and. np > 1) errs = errs + 1
  ! the collectives' large-count specifics: MPI_Allreduce_f08c (MPI_Allreduce_c) with the same user op,
  ! MPI_Allgatherv_f08c with MPI_COUNT_KIND counts and MPI_ADDRESS_KIND displacements (a gap after each block)
  val = np - 1 - rank
  call MPI_Allreduce(MPI_IN_PLACE, val, 1_MPI_COUNT_KIND, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (val /= np - 1 .and. np > 1) errs = errs + 1
  call MPI_Op_create_c(imax_c, .true., op_c)
  val = np - 1 - rank
  call MPI_Allreduce(MPI_IN_PLACE, val, 1_MPI_COUNT_KIND, MPI_INTEGER, op_c, MPI_COMM_WORLD)
  if (val /= np - 1 .and. np > 1) errs = errs + 1
  val = np - 1 - rank
  call MPI_Allreduce(MPI_IN_PLACE, val, 1, MPI_INTEGER, op_c, MPI_COMM_WORLD)
  if (val /= np - 1 .and. np > 1) errs = errs + 1
  call MPI_Op_free(op_c)
  if (np <= 32) then
    all = -1
    do i = 1, np
      cnts(i) = 1
      dsps(i) = 2 * (i - 1)
    end do
    call MPI_Allgatherv(rank + 100, 1_MPI_COUNT_KIND, MPI_INTEGER, all, cnts, dsps, MPI_INTEGER, MPI_COMM_WORLD)
    do i = 1, np
      if (all(2 * i - 1) /= i + 99 .or. all(2 * i) /= -1) errs = errs + 1
    end do
  end if
  call MPI_Op_free(op)
  if (op /= MPI_OP_NULL) errs = errs + 1
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  if (dup == MPI_COMM_WORLD .or. dup == MPI_COMM_NULL) errs = errs + 1
  call MPI_Comm_set_name(dup, 'f08 dup')
  call MPI_Comm_get_name(dup, name, n)
  if (name /= 'f08 dup' .or. n /= 7) errs = errs + 1
  extra = 3
  call MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, key, extra)
  aval = rank + 1
  call MPI_Comm_set_attr(dup, key, aval)
  call MPI_Comm_dup(dup, dup2)
  call MPI_Comm_get_attr(dup2, key, aval, flag)
  if (.not. flag .or. aval /= 3 * (rank + 1) .or. copies /= 1) errs = errs + 1
  call MPI_Comm_free(dup2)
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)
  if (dup /= MPI_COMM_NULL) errs = errs + 1
  call MPI_Sizeof(d, n)
  if (n /= 8) errs = errs + 1
  if (MPI_Wtime() <= 0d0) errs = errs + 1
  include 'mt_finish.inc'
  call MPI_Finalize()
end program
