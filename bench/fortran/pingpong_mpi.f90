! SPDX-License-Identifier: BSD-3-Clause
! pingpong.c with the mpi module.  Usage: pingpong_mpi N ITERS.
program pingpong_mpi
  use mpi
  implicit none
  integer :: n, iters, rank, it, ierr
  character(len=32) :: arg
  character, allocatable :: buf(:)
  double precision :: t0
  call get_command_argument(1, arg)
  read (arg, *) n
  call get_command_argument(2, arg)
  read (arg, *) iters
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  allocate(buf(n + 1))
  t0 = 0
  do it = -iters / 10, iters - 1
    if (it == 0) then
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      t0 = MPI_Wtime()
    end if
    if (rank == 0) then
      call MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else if (rank == 1) then
      call MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) print '(A,I0,A,F0.4,A)', 'latency ', n, ' ', (MPI_Wtime() - t0) / iters / 2 * 1d6, ' us'
  call MPI_Finalize(ierr)
end program
