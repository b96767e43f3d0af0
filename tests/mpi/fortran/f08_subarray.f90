! SPDX-License-Identifier: BSD-3-Clause
! mpi_f08's array sections (MPI_SUBARRAYS_SUPPORTED, src/fortran/fsection.h): nonblocking sends and receives
! of noncontiguous sections around a ring, in flight across a migration point (a column slice, a strided 2-d
! section, a reversed one, part of a section by a count below its size); a section of INTEGERs sent as
! MPI_BYTE (4 datatype elements per array element) and of COMPLEX as MPI_REAL pairs; blocking collectives on
! sections whose count and datatype are another buffer's too or per process (a copy: MPI_Allreduce,
! MPI_Alltoallv, MPI_Gather, MPI_Scatter, MPI_Alltoall) or whose datatype reaches past an array element (a
! resized vector); what no call can take, under MPI_ERRORS_RETURN: such a section to a nonblocking collective
! (raised on its communicator's handler, not MPI_COMM_WORLD's), to MPI_Psend_init, as a window's memory, and a
! count above the section's size (MPI_ERR_BUFFER, MPI_ERR_COUNT), each leaving the array alone;
! MPI_Get_address of a section (its first element's); MPI_Buffer_detach's TYPE(C_PTR).
program f08_subarray
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_loc, c_associated
  implicit none
  integer :: rank, np, left, right, errs, ierr, i, j, k, cls
  integer :: a(9, 9), b(9, 9), v(20), w(20), cnt(64), dsp(64)
  integer :: sa(64 * 6), ra(64 * 6)
  complex :: z(10), zr(10)
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: sts(2)
  type(MPI_Win) :: win
  type(MPI_Comm) :: dup
  type(MPI_Datatype) :: vec, pair
  type(c_ptr) :: detached
  integer :: dsize
  character, allocatable, target :: bbuf(:)
  integer(kind=MPI_ADDRESS_KIND) :: addr1, addr2

  errs = 0
  if (.not. MPI_SUBARRAYS_SUPPORTED) errs = errs + 1
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  right = mod(rank + 1, np)
  left = mod(rank - 1 + np, np)

  ! columns 2, 4 and 6: three contiguous columns 9 apart, in flight across a migration point
  do k = 1, 3
    do i = 1, 9
      do j = 1, 9
        a(j, i) = rank * 1000 + j * 10 + i
      end do
    end do
    b = -1
    select case (k)
    case (1)
      call MPI_Irecv(b(:, 2:6:2), 27, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1))
      call MPI_Isend(a(:, 2:6:2), 27, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(2))
    case (2) ! rows 1, 4, 7 of those columns
      call MPI_Irecv(b(1:7:3, 2:6:2), 9, MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(1))
      call MPI_Isend(a(1:7:3, 2:6:2), 9, MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2))
    case (3) ! reversed rows of column 3, received into rows 9..1 of column 5 forward
      call MPI_Irecv(b(:, 5), 9, MPI_INTEGER, left, 3, MPI_COMM_WORLD, reqs(1))
      call MPI_Isend(a(9:1:-1, 3), 9, MPI_INTEGER, right, 3, MPI_COMM_WORLD, reqs(2))
    end select
    call AMPI_Migrate(MPI_INFO_NULL, ierr)
    call MPI_Waitall(2, reqs, sts)
    do i = 1, 9
      do j = 1, 9
        select case (k)
        case (1)
          if (b(j, i) /= merge(left * 1000 + j * 10 + i, -1, i == 2 .or. i == 4 .or. i == 6)) errs = errs + 1
        case (2)
          if (b(j, i) /= merge(left * 1000 + j * 10 + i, -1, (i == 2 .or. i == 4 .or. i == 6) .and. &
              (j == 1 .or. j == 4 .or. j == 7))) errs = errs + 1
        case (3)
          if (b(j, i) /= merge(left * 1000 + (10 - j) * 10 + 3, -1, i == 5)) errs = errs + 1
        end select
      end do
    end do
  end do

  ! a count below the section's size: its first elements, the others left alone; and MPI_BYTE over INTEGERs
  do i = 1, 20
    v(i) = rank * 100 + i
  end do
  w = -1
  call MPI_Irecv(w(1:20:2), 7, MPI_INTEGER, left, 4, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(v(2:20:3), 5, MPI_INTEGER, right, 4, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  call MPI_Get_count(sts(1), MPI_INTEGER, k)
  if (k /= 5) errs = errs + 1
  do i = 1, 20
    if (w(i) /= merge(left * 100 + 2 + 3 * (i / 2), -1, mod(i, 2) == 1 .and. i <= 9)) errs = errs + 1
  end do
  w = -1
  call MPI_Irecv(w(20:1:-2), 40, MPI_BYTE, left, 5, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(v(1:20:2), 40, MPI_BYTE, right, 5, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  do i = 1, 20
    if (w(i) /= merge(left * 100 + 21 - i, -1, mod(i, 2) == 0)) errs = errs + 1
  end do

  ! COMPLEX elements as pairs of MPI_REAL
  do i = 1, 10
    z(i) = cmplx(rank * 10 + i, -i)
  end do
  zr = (0., 0.)
  call MPI_Irecv(zr(1:10:3), 8, MPI_REAL, left, 6, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(z(10:1:-3), 8, MPI_REAL, right, 6, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  do i = 1, 10
    if (mod(i - 1, 3) == 0) then
      if (zr(i) /= cmplx(left * 10 + 11 - i, -(11 - i))) errs = errs + 1
    else if (zr(i) /= (0., 0.)) then
      errs = errs + 1
    end if
  end do

  ! blocking collectives on sections that no datatype describes: copies
  v = 0
  do i = 1, 20, 4
    v(i) = rank + i
  end do
  w = -7
  call MPI_Allreduce(v(1:20:4), w(2:20:4), 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  do i = 1, 20
    if (w(i) /= merge(np * (np - 1) / 2 + np * (i - 1), -7, mod(i, 4) == 2)) errs = errs + 1
  end do
  do i = 1, np
    sa(3 * i - 2) = rank * 100 + i
    sa(3 * i - 1) = -5
    sa(3 * i) = -5
    cnt(i) = 1
    dsp(i) = i - 1
  end do
  ra = -3
  call MPI_Alltoallv(sa(1:3 * np:3), cnt, dsp, MPI_INTEGER, ra(2:6 * np:6), cnt, dsp, MPI_INTEGER, &
                     MPI_COMM_WORLD)
  do i = 1, 6 * np
    if (ra(i) /= merge((i / 6) * 100 + rank + 1, -3, mod(i, 6) == 2)) errs = errs + 1
  end do

  ! counts per process: copies
  do i = 1, 6 * np
    sa(i) = rank * 1000 + i
  end do
  ra = -3
  call MPI_Gather(sa(1:6:3), 2, MPI_INTEGER, ra(1:4 * np:2), 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    do i = 1, 4 * np
      k = (i + 1) / 2 - 1 ! the element of the section: process k / 2, its element mod(k, 2)
      if (ra(i) /= merge((k / 2) * 1000 + 1 + 3 * mod(k, 2), -3, mod(i, 2) == 1)) errs = errs + 1
    end do
  end if
  w = -3
  call MPI_Scatter(sa(1:6 * np:3), 2, MPI_INTEGER, w(1:3:2), 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (w(1) /= 6 * rank + 1 .or. w(3) /= 6 * rank + 4 .or. w(2) /= -3 .or. any(w(4:) /= -3)) errs = errs + 1
  do i = 1, np
    sa(2 * i - 1) = rank * 100 + i
    sa(2 * i) = -5
  end do
  ra = -3
  call MPI_Alltoall(sa(1:2 * np:2), 1, MPI_INTEGER, ra(1:3 * np:3), 1, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 1, 3 * np
    if (ra(i) /= merge((i / 3) * 100 + rank + 1, -3, mod(i, 3) == 1)) errs = errs + 1
  end do

  ! a datatype whose data reaches past an array element (a vector resized to one INTEGER): a copy
  call MPI_Type_vector(2, 1, 3, MPI_INTEGER, vec)
  call MPI_Type_create_resized(vec, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND, pair)
  call MPI_Type_commit(pair)
  do i = 1, 20
    v(i) = rank * 100 + i
  end do
  w = -1
  call MPI_Sendrecv(v(1:20:2), 3, pair, rank, 9, w, 6, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do i = 1, 20 ! instance j takes the section's elements j and j + 3: v(2j + 1) and v(2j + 7)
    k = (i - 1) / 2
    if (w(i) /= merge(rank * 100 + 2 * k + 1 + merge(6, 0, mod(i, 2) == 0), -1, i <= 6)) errs = errs + 1
  end do
  call MPI_Type_free(pair)
  call MPI_Type_free(vec)

  ! MPI_Buffer_detach gives back the attached buffer (a TYPE(C_PTR), no descriptor)
  allocate(bbuf(1000))
  call MPI_Buffer_attach(bbuf, 1000)
  call MPI_Buffer_detach(detached, dsize)
  if (.not. c_associated(detached, c_loc(bbuf)) .or. dsize /= 1000) errs = errs + 1
  deallocate(bbuf)

  ! a refusal raised on the call's communicator (MPI_COMM_WORLD's handler is still fatal)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  w = -9
  call MPI_Iallreduce(v(1:20:4), w(2:20:4), 5, MPI_INTEGER, MPI_SUM, dup, reqs(1), ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER .or. any(w /= -9)) errs = errs + 1
  call MPI_Igather(v(1:4:2), 2, MPI_INTEGER, ra(1:4 * np:2), 2, MPI_INTEGER, 0, dup, reqs(1), ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER .and. rank == 0) errs = errs + 1
  call MPI_Psend_init(v(1:20:2), 2, 5_MPI_COUNT_KIND, MPI_INTEGER, right, 8, dup, MPI_INFO_NULL, reqs(1), ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER) errs = errs + 1
  call MPI_Comm_free(dup)

  ! what no call can take: refused, the arrays untouched
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  w = -9
  call MPI_Iallreduce(v(1:20:4), w(2:20:4), 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER .or. any(w /= -9)) errs = errs + 1
  call MPI_Win_create(w(1:20:2), 40_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_BUFFER) errs = errs + 1
  call MPI_Irecv(w(1:20:2), 11, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_COUNT .or. any(w /= -9)) errs = errs + 1

  ! a section's address is its first element's
  call MPI_Get_address(a(3:9:2, 4), addr1)
  call MPI_Get_address(a(3, 4), addr2)
  if (addr1 /= addr2) errs = errs + 1

  include 'mt_finish.inc'
  call MPI_Finalize()
end program
