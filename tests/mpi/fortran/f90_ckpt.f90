! SPDX-License-Identifier: BSD-3-Clause
! A Fortran program's state through a checkpoint to a file (tests/tools/ckpt.sh kills it after the checkpoint
! and restarts it on other PE counts): its module variables, a COMMON block, a SAVE variable, an ALLOCATABLE
! array, a communicator with a Fortran attribute and a user operation written in Fortran, all made before the
! checkpoint and used after it; each rank ends with a digest of it all, which must be the uninterrupted run's.
! Usage: f90_ckpt DIR [kill] (kill: the first run kills itself after its checkpoint).  Without arguments (the
! testlist): no checkpoint, the same digests.
module f90_ckpt_state
  implicit none
  integer(kind=8) :: acc = 0
  integer :: steps_done = 0
end module

subroutine mix(invec, inoutvec, n, dtype)
  implicit none
  integer :: n, dtype, i
  integer(kind=8) :: invec(n), inoutvec(n)
  do i = 1, n
    inoutvec(i) = ieor(mod(inoutvec(i), 1000000007_8) * 31_8, invec(i))
  end do
end subroutine

program f90_ckpt
  use mpi
  use f90_ckpt_state
  implicit none
  integer :: ierr, rank, np, step, key, comm, op, info, restarted, errs, i
  integer :: hist(8)
  common /history/ hist
  integer, save :: saved = 7
  integer(kind=8), allocatable :: work(:)
  integer(kind=8) :: digest, all
  integer(kind=8), parameter :: p = 1000000007_8
  integer(kind=MPI_ADDRESS_KIND) :: aval, extra
  logical :: flag, kill_after
  character(len=256) :: dir
  character(len=64) :: line
  external :: mix
  errs = 0
  dir = ''
  if (command_argument_count() >= 1) call get_command_argument(1, dir)
  kill_after = .false.
  if (command_argument_count() >= 2) then
    call get_command_argument(2, line)
    kill_after = line == 'kill'
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  allocate(work(1000))
  work = [(int(rank, 8) * 1000 + i, i = 1, 1000)]
  hist = 0
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  aval = 1000 + rank
  call MPI_Comm_set_attr(comm, key, aval, ierr)
  call MPI_Op_create(mix, .false., op, ierr)
  do step = 1, 6
    acc = acc * 3 + step + rank
    hist(step) = rank * 10 + step
    saved = saved + step
    work = work + step
    write (line, '(A,I0,A,I0)') 'rank ', rank, ' step ', step   ! libgfortran's internal units, too
    if (step == 3 .and. len_trim(dir) > 0) then
      call MPI_Info_create(info, ierr)
      call MPI_Info_set(info, 'ampi_checkpoint', 'to_file=' // trim(dir), ierr)
      call AMPI_Migrate(info, ierr)
      if (ierr /= MPI_SUCCESS) call fail('AMPI_Migrate', ierr)
      call MPI_Info_free(info, ierr)
      call VMPIX_Restarted(restarted, ierr)
      if (rank == 0 .and. restarted == 1) print '(A)', 'f90_ckpt: restarted'
      if (kill_after .and. restarted == 0) then
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        if (rank == 0) then
          flush (6)
          call kill(getpid(), 9)
        end if
        call MPI_Barrier(MPI_COMM_WORLD, ierr)   ! never completes
      end if
    else
      call AMPI_Migrate(MPI_INFO_NULL, ierr)
    end if
    steps_done = steps_done + 1
  end do
  call MPI_Comm_get_attr(comm, key, aval, flag, ierr)
  if (.not. flag .or. aval /= 1000 + rank) call fail('attribute', int(aval))
  if (line /= 'rank ' // trim(itoa(rank)) // ' step 6') call fail('internal write', len_trim(line))
  ! (modulo a prime: no overflow, which UBSan would report)
  digest = mod(acc, p)
  do i = 1, 8
    digest = mod(digest * 131 + hist(i), p)
  end do
  digest = mod(digest * 131 + saved + steps_done, p)
  digest = mod(digest * 131 + sum(work), p)
  call MPI_Allreduce(digest, all, 1, MPI_INTEGER8, op, comm, ierr)
  print '(A,I0,A,Z16.16,A,Z16.16)', 'rank ', rank, ' digest ', digest, ' ', all
  call MPI_Op_free(op, ierr)
  call MPI_Comm_free(comm, ierr)
  include 'mt_finish.inc'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what, v)
    character(len=*) :: what
    integer :: v
    errs = errs + 1
    write (0, '(A,I0,A,A,A,I0)') '[rank ', rank, '] f90_ckpt: ', what, ': got ', v
  end subroutine
  function itoa(v) result(s)
    integer :: v
    character(len=12) :: s
    write (s, '(I0)') v
  end function
end program
