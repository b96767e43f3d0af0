! SPDX-License-Identifier: BSD-3-Clause
! Collectives from a program that uses the mpi module: every reduction on Fortran's datatypes (INTEGER,
! REAL, DOUBLE PRECISION, COMPLEX, LOGICAL, the sized kinds, MPI_2INTEGER with MINLOC), MPI_IN_PLACE, a
! user operation written in Fortran, the v-collectives, a CHARACTER broadcast, nonblocking collectives
! completed after a migration point, and module variables, which are per rank.
module f90_coll_state
  implicit none
  integer :: calls = 0      ! how many times this rank called the user operation
  integer :: me = -1
end module

subroutine fail(errs, what, v)
  implicit none
  integer :: errs, v
  character(len=*) :: what
  errs = errs + 1
  write (0, '(A,A,A,I0)') 'f90_coll: ', what, ': got ', v
end subroutine

! affine maps x -> a*x + b (mod 1000003), composed: inoutvec := inoutvec o invec (invec applied first).
! Associative, as MPI requires, and not commutative: the ranks' maps are composed in rank order.
subroutine compose(invec, inoutvec, n, dtype)
  use f90_coll_state
  implicit none
  integer :: n, dtype, i
  integer :: invec(2, n), inoutvec(2, n)
  integer(kind=8), parameter :: p = 1000003
  calls = calls + 1
  do i = 1, n
    inoutvec(2, i) = int(mod(int(inoutvec(1, i), 8) * invec(2, i) + inoutvec(2, i), p))
    inoutvec(1, i) = int(mod(int(inoutvec(1, i), 8) * invec(1, i), p))
  end do
end subroutine

program f90_coll
  use mpi
  use f90_coll_state
  implicit none
  integer :: ierr, rank, np, errs, i, root, op, expect, step
  integer :: iv(3), ivs(3), two(2, 1), tworesult(2, 1)
  integer, allocatable :: counts(:), displs(:), gathered(:), sendall(:), recvall(:)
  real :: r
  double precision :: d(4)
  complex :: c
  logical :: l, lall
  integer(kind=8) :: i8
  real(kind=8) :: r8
  character(len=16) :: word
  integer :: req(2)
  external :: compose
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  me = rank

  ! the reductions on Fortran's types
  iv = (/ rank, -rank, 1 /)
  call MPI_Allreduce(iv, ivs, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ivs(1) /= np * (np - 1) / 2 .or. ivs(2) /= -ivs(1) .or. ivs(3) /= np) call fail(errs, 'integer sum', ivs(1))
  r = real(rank) + 0.25
  call MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (r /= real(np - 1) + 0.25) call fail(errs, 'real max', int(r))
  d = (/ 1d0, dble(rank), 0.5d0, -dble(rank) /)
  call MPI_Allreduce(MPI_IN_PLACE, d, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (d(1) /= np .or. d(2) /= np * (np - 1) / 2 .or. d(3) /= 0.5d0 * np .or. d(4) /= -d(2)) &
      call fail(errs, 'double precision sum', int(d(2)))
  c = cmplx(rank, 1)
  call MPI_Allreduce(MPI_IN_PLACE, c, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (real(c) /= np * (np - 1) / 2 .or. aimag(c) /= np) call fail(errs, 'complex sum', int(aimag(c)))
  l = mod(rank, 2) == 0
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  if (lall .neqv. (np == 1)) call fail(errs, 'logical and', np)
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  if (.not. lall) call fail(errs, 'logical or', np)
  i8 = int(rank, 8) * 4000000000_8
  call MPI_Allreduce(MPI_IN_PLACE, i8, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (i8 /= int(np * (np - 1) / 2, 8) * 4000000000_8) call fail(errs, 'integer8 sum', int(i8 / 1000000))
  r8 = dble(rank)
  call MPI_Allreduce(MPI_IN_PLACE, r8, 1, MPI_REAL8, MPI_MIN, MPI_COMM_WORLD, ierr)
  if (r8 /= 0d0) call fail(errs, 'real8 min', int(r8))
  two(1, 1) = mod(rank + 1, np)   ! value: smallest at the rank np-1 (0)
  two(2, 1) = rank                ! location
  call MPI_Allreduce(two, tworesult, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  if (tworesult(1, 1) /= 0 .or. tworesult(2, 1) /= np - 1) call fail(errs, 'minloc', tworesult(2, 1))

  ! a user operation written in Fortran, not commutative: the ranks' maps composed in rank order
  call MPI_Op_create(compose, .false., op, ierr)
  two(1, 1) = 2 + mod(rank, 5)
  two(2, 1) = rank + 1
  call MPI_Allreduce(two, tworesult, 1, MPI_2INTEGER, op, MPI_COMM_WORLD, ierr)
  i8 = 1     ! the composition of rank 0's map, then 1's...: a and b of x -> a*x + b
  expect = 0
  do i = 0, np - 1
    expect = int(mod(int(2 + mod(i, 5), 8) * expect + i + 1, 1000003_8))
    i8 = mod(i8 * (2 + mod(i, 5)), 1000003_8)
  end do
  if (tworesult(1, 1) /= i8 .or. tworesult(2, 1) /= expect) call fail(errs, 'user op', tworesult(2, 1))
  call MPI_Allreduce(calls, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (np > 1 .and. i < 1) call fail(errs, 'the user operation was never called', i)
  call MPI_Op_free(op, ierr)
  if (op /= MPI_OP_NULL) call fail(errs, 'op_free', op)

  ! a broadcast of CHARACTERs from every root, with a migration point in between
  do step = 1, 3
    root = mod(step * 7, np)
    word = 'nothing'
    if (rank == root) write (word, '(A,I0)') 'root ', root
    call MPI_Bcast(word, len(word), MPI_CHARACTER, root, MPI_COMM_WORLD, ierr)
    write (word(15:16), '(A)') '  '
    if (word(1:5) /= 'root ') call fail(errs, 'bcast character', root)
    call AMPI_Migrate(MPI_INFO_NULL, ierr)
    if (me /= rank) call fail(errs, 'module variable after migration', me)
  end do

  ! gatherv and scatterv with rank+1 elements from each rank
  allocate(counts(np), displs(np), gathered(np * (np + 1) / 2))
  do i = 1, np
    counts(i) = i
    displs(i) = (i - 1) * i / 2
  end do
  allocate(sendall(rank + 1))
  sendall = rank
  root = np - 1
  call MPI_Gatherv(sendall, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, root, &
                   MPI_COMM_WORLD, ierr)
  deallocate(sendall)
  if (rank == root) then
    do i = 1, np
      if (any(gathered(displs(i) + 1:displs(i) + i) /= i - 1)) call fail(errs, 'gatherv', gathered(displs(i) + 1))
    end do
  end if
  deallocate(counts, displs, gathered)

  ! alltoall, nonblocking, completed after a migration point
  allocate(sendall(np), recvall(np))
  do i = 1, np
    sendall(i) = rank * 1000 + i - 1
  end do
  call MPI_Ialltoall(sendall, 1, MPI_INTEGER, recvall, 1, MPI_INTEGER, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, req(2), ierr)
  call AMPI_Migrate(MPI_INFO_NULL, ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  do i = 1, np
    if (recvall(i) /= (i - 1) * 1000 + rank) call fail(errs, 'ialltoall', recvall(i))
  end do
  deallocate(sendall, recvall)

  ! reduce into the root in place, scan and exscan
  expect = rank + 1
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, expect, 1, MPI_INTEGER, MPI_PROD, 0, MPI_COMM_WORLD, ierr)
    i8 = 1
    do i = 1, min(np, 12)   ! np! fits an INTEGER up to 12
      i8 = i8 * i
    end do
    if (np <= 12 .and. expect /= i8) call fail(errs, 'reduce in place', expect)
  else
    call MPI_Reduce(expect, iv, 1, MPI_INTEGER, MPI_PROD, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Scan(rank, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (i /= rank * (rank + 1) / 2) call fail(errs, 'scan', i)

  include 'mt_finish.inc'
  call MPI_Finalize(ierr)
end program
