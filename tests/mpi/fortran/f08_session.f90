! SPDX-License-Identifier: BSD-3-Clause
! The Sessions model through mpi_f08, without MPI_Init: TYPE(MPI_Session) and MPI_SESSION_NULL, the process
! sets' names (the length first, then the name) and sizes, a communicator from mpi://WORLD's group used
! across migration points, an intercommunicator between the two halves, MPI_Session_get_info, an unknown
! process set refused with MPI_ERR_ARG under MPI_ERRORS_RETURN and through a Fortran session error handler,
! and the verdict on the session's communicator.
module f08_session_state
  implicit none
  integer :: calls = 0, last_code = -1
contains
  subroutine on_error(session, code)
    use mpi_f08
    type(MPI_Session) :: session
    integer :: code
    calls = calls + 1
    last_code = code
  end subroutine
end module

program f08_session
  use mpi_f08
  use f08_session_state
  implicit none
  type(MPI_Session) :: s
  type(MPI_Group) :: g, half, other
  type(MPI_Comm) :: c, inter
  type(MPI_Info) :: info
  type(MPI_Errhandler) :: eh
  integer :: errs, rank, np, n, i, plen, val, total, ierr, step, cls, lo(1), hi(1)
  character(len=MPI_MAX_PSET_NAME_LEN) :: pname
  character(len=MPI_MAX_INFO_VAL) :: v
  logical :: flag, seen_world, seen_self
  errs = 0
  seen_world = .false.
  seen_self = .false.
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s, ierr)
  if (ierr /= MPI_SUCCESS .or. s == MPI_SESSION_NULL) errs = errs + 1
  call MPI_Initialized(flag)
  if (flag) errs = errs + 1
  call MPI_Session_get_num_psets(s, MPI_INFO_NULL, n)
  if (n < 2) errs = errs + 1
  do i = 0, n - 1
    plen = 0
    call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, plen, pname)
    if (plen < 2) errs = errs + 1
    plen = len(pname)
    call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, plen, pname)
    if (len_trim(pname) + 1 /= plen) errs = errs + 1
    call MPI_Session_get_pset_info(s, trim(pname), info)
    call MPI_Info_get(info, "mpi_size", len(v), v, flag)
    if (.not. flag) errs = errs + 1
    call MPI_Info_free(info)
    if (trim(pname) == "mpi://WORLD") seen_world = .true.
    if (trim(pname) == "mpi://SELF") then
      seen_self = .true.
      if (trim(v) /= "1") errs = errs + 1
    end if
  end do
  if (.not. (seen_world .and. seen_self)) errs = errs + 1
  call MPI_Session_get_info(s, info)
  call MPI_Info_get(info, "thread_level", len(v), v, flag)
  if (.not. flag .or. trim(v) /= "MPI_THREAD_SINGLE") errs = errs + 1
  call MPI_Info_free(info)
  call MPI_Group_from_session_pset(s, "mpi://NOWHERE", g, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_ARG) errs = errs + 1
  ! a user handler, written in Fortran, called with the session and the code
  call MPI_Session_create_errhandler(on_error, eh)
  call MPI_Session_set_errhandler(s, eh)
  call MPI_Session_call_errhandler(s, MPI_ERR_OTHER)
  call MPI_Group_from_session_pset(s, "mpi://NOWHERE", g, ierr)
  if (calls /= 2 .or. last_code /= ierr .or. ierr == MPI_SUCCESS) errs = errs + 1
  call MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN)
  call MPI_Errhandler_free(eh)

  call MPI_Group_from_session_pset(s, "mpi://WORLD", g)
  call MPI_Comm_create_from_group(g, "org.vmpi.test.f08", MPI_INFO_NULL, MPI_ERRORS_RETURN, c)
  call MPI_Comm_rank(c, rank)
  call MPI_Comm_size(c, np)
  do step = 1, 3
    call MPI_Allreduce(rank + step, val, 1, MPI_INTEGER, MPI_SUM, c)
    if (val /= np * (np - 1) / 2 + np * step) errs = errs + 1
    call AMPI_Migrate(MPI_INFO_NULL, ierr)
  end do
  if (np > 1) then
    ! the lower and the upper half of the ranks
    lo(1) = 0
    hi(1) = np / 2 - 1
    if (rank >= np / 2) then
      lo(1) = np / 2
      hi(1) = np - 1
    end if
    call MPI_Group_range_incl(g, 1, reshape([lo(1), hi(1), 1], [3, 1]), half)
    call MPI_Group_difference(g, half, other)
    call MPI_Intercomm_create_from_groups(half, 0, other, 0, "org.vmpi.test.f08.inter", MPI_INFO_NULL, &
                                          MPI_ERRORS_RETURN, inter)
    call MPI_Comm_remote_size(inter, n)
    if (n /= np - (hi(1) - lo(1) + 1)) errs = errs + 1
    call MPI_Allreduce(1, val, 1, MPI_INTEGER, MPI_SUM, inter)
    if (val /= n) errs = errs + 1
    call MPI_Comm_free(inter)
    call MPI_Group_free(half)
    call MPI_Group_free(other)
  end if
  call MPI_Group_free(g)

  call MPI_Allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, c)
  if (rank == 0) then
    if (total == 0) then
      print '(A)', ' No Errors'
    else
      print '(A,I0,A)', ' Found ', total, ' errors'
    end if
  end if
  call MPI_Comm_free(c)
  call MPI_Session_finalize(s)
  if (s /= MPI_SESSION_NULL) error stop 'MPI_Session_finalize left the handle'
end program
