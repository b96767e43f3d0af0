! SPDX-License-Identifier: BSD-3-Clause
! A token around a ring of ranks, in Fortran with the mpi module: each rank adds its number and passes it
! on.  `counter` (a module variable) and the COMMON block are per rank, as every global of the program.
module ring_state
  implicit none
  integer :: passes = 0
end module

program ring
  use mpi
  use ring_state
  implicit none
  integer :: ierr, rank, np, token, round
  integer :: status(MPI_STATUS_SIZE)
  integer :: me
  common /who/ me
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  me = rank
  do round = 1, 3
    if (rank == 0) then
      token = 0
      call MPI_Send(token, 1, MPI_INTEGER, mod(1, np), round, MPI_COMM_WORLD, ierr)
      call MPI_Recv(token, 1, MPI_INTEGER, np - 1, round, MPI_COMM_WORLD, status, ierr)
    else
      call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, round, MPI_COMM_WORLD, status, ierr)
      token = token + rank
      call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, np), round, MPI_COMM_WORLD, ierr)
    end if
    passes = passes + 1
    call AMPI_Migrate(MPI_INFO_NULL, ierr)   ! ranks may move to another PE here (vmpirun --balancer)
  end do
  if (me /= rank .or. passes /= 3) print *, 'rank', rank, ': its globals were not its own'
  if (rank == 0) print '(A,I0,A,I0,A,I0)', 'ring of ', np, ' ranks: token ', token, ', expected ', np * (np - 1) / 2
  call MPI_Finalize(ierr)
end program
