! SPDX-License-Identifier: BSD-3-Clause
! MPI's objects from a program that uses the mpi module: CHARACTER arguments (names, error strings, info keys
! and values with blanks around them), LOGICAL ones (topologies), attributes and keyvals with Fortran
! callbacks, the predefined attributes, error handlers (MPI_ERRORS_RETURN and a Fortran subroutine), groups
! (MPI_GROUP_RANGE_INCL's triplets), a distributed graph with MPI_UNWEIGHTED, datatype envelopes, MPI_SIZEOF
! and the address functions; a migration point in the middle.
module f90_objects_state
  implicit none
  integer :: copies = 0, deletes = 0, handled = 0, handled_code = 0
end module

subroutine fail(errs, what, v)
  implicit none
  integer :: errs, v
  character(len=*) :: what
  errs = errs + 1
  write (0, '(A,A,A,I0)') 'f90_objects: ', what, ': got ', v
end subroutine

subroutine copy_fn(oldcomm, keyval, extra, valin, valout, flag, ierr)
  use mpi
  use f90_objects_state
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
  logical :: flag
  copies = copies + 1
  valout = valin + extra
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine

subroutine delete_fn(comm, keyval, val, extra, ierr)
  use mpi
  use f90_objects_state
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  deletes = deletes + 1
  ierr = MPI_SUCCESS
end subroutine

subroutine handler(comm, code)
  use f90_objects_state
  implicit none
  integer :: comm, code
  handled = handled + 1
  handled_code = code
end subroutine

program f90_objects
  use mpi
  use f90_objects_state
  implicit none
  integer :: ierr, rank, np, errs, i, n, cls, key, dup, eh, cart, sub, grp, sub_grp, graph
  integer :: dims(2), coords(2), ranges(3, 1), srcs(1), dsts(1), ints(4), types(2), comb, ni, na, nd
  logical :: periods(2), remain(2), flag, outp(2)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: estr
  character(len=MPI_MAX_INFO_VAL) :: val
  character(len=MPI_MAX_INFO_KEY) :: k
  integer :: info, vec, big(1000)
  integer(kind=MPI_ADDRESS_KIND) :: aval, extra, a1, a2, aints(2)
  double precision :: t0, t1, d(2)
  external :: copy_fn, delete_fn, handler
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! names: blanks after a name are not part of it
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_name(dup, 'fortran dup   ', ierr)
  call MPI_Comm_get_name(dup, name, n, ierr)
  if (name /= 'fortran dup' .or. n /= 11) call fail(errs, 'comm name length', n)
  call MPI_Error_string(MPI_ERR_RANK, estr, n, ierr)
  if (n <= 0 .or. n /= len_trim(estr)) call fail(errs, 'error string length', n)

  ! info: leading and trailing blanks of keys and values are dropped
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, '  color ', ' blue  ', ierr)
  call MPI_Info_get(info, 'color', MPI_MAX_INFO_VAL, val, flag, ierr)
  if (.not. flag .or. val /= 'blue') call fail(errs, 'info value', len_trim(val))
  call MPI_Info_get_valuelen(info, 'color', n, flag, ierr)
  if (.not. flag .or. n /= 4) call fail(errs, 'info valuelen', n)
  call MPI_Info_get_nthkey(info, 0, k, ierr)
  if (k /= 'color') call fail(errs, 'info nthkey', len_trim(k))
  n = 2
  call MPI_Info_get_string(info, 'color', n, val, flag, ierr)
  if (.not. flag .or. n /= 4 .or. val /= 'bl') call fail(errs, 'info get_string', n)
  call MPI_Info_free(info, ierr)
  if (info /= MPI_INFO_NULL) call fail(errs, 'info free', info)

  ! attributes: a Fortran keyval copied by MPI_COMM_DUP through the Fortran callback, then deleted
  extra = 10
  call MPI_Comm_create_keyval(copy_fn, delete_fn, key, extra, ierr)
  aval = 100 + rank
  call MPI_Comm_set_attr(dup, key, aval, ierr)
  call MPI_Comm_dup(dup, sub, ierr)
  call MPI_Comm_get_attr(sub, key, aval, flag, ierr)
  if (.not. flag .or. aval /= 110 + rank .or. copies /= 1) call fail(errs, 'attribute copied', int(aval))
  call MPI_Comm_free(sub, ierr)
  if (deletes /= 1) call fail(errs, 'delete callback', deletes)
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  aval = -7
  call MPI_Comm_set_attr(dup, key, aval, ierr)
  call MPI_Comm_dup(dup, sub, ierr)
  call MPI_Comm_get_attr(sub, key, aval, flag, ierr)
  if (.not. flag .or. aval /= -7) call fail(errs, 'MPI_COMM_DUP_FN', int(aval))
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, aval, flag, ierr)
  if (.not. flag .or. aval < 32767) call fail(errs, 'MPI_TAG_UB', int(aval))
  call MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, aval, flag, ierr)
  if (.not. flag .or. aval < 1) call fail(errs, 'AMPI_NUM_WTHS', int(aval))

  call AMPI_Migrate(MPI_INFO_NULL, ierr)

  ! errors: returned, then given to a Fortran handler with the communicator and the code
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(i, 1, MPI_INTEGER, np + 5, 0, dup, ierr)
  call MPI_Error_class(ierr, cls, n)
  if (cls /= MPI_ERR_RANK) call fail(errs, 'error class of a bad rank', cls)
  call MPI_Comm_create_errhandler(handler, eh, ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call MPI_Send(i, 1, MPI_INTEGER, np + 5, 0, dup, ierr)
  call MPI_Error_class(handled_code, cls, n)
  if (handled /= 1 .or. cls /= MPI_ERR_RANK) call fail(errs, 'user error handler', handled)
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_free(dup, ierr)

  ! a periodic 2-d grid: LOGICAL arrays in and out
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_get(cart, 2, dims, outp, coords, ierr)
  if (.not. outp(1) .or. outp(2)) call fail(errs, 'cart periods', 0)
  remain = (/ .false., .true. /)
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call MPI_Comm_size(sub, n, ierr)
  if (n /= dims(2)) call fail(errs, 'cart_sub size', n)
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(cart, ierr)

  ! a group of the even ranks, by a triplet
  call MPI_Comm_group(MPI_COMM_WORLD, grp, ierr)
  ranges(:, 1) = (/ 0, np - 1, 2 /)
  call MPI_Group_range_incl(grp, 1, ranges, sub_grp, ierr)
  call MPI_Group_size(sub_grp, n, ierr)
  if (n /= (np + 1) / 2) call fail(errs, 'group_range_incl', n)
  call MPI_Group_free(sub_grp, ierr)
  call MPI_Group_free(grp, ierr)

  ! a ring as a distributed graph, unweighted
  srcs(1) = mod(rank + np - 1, np)
  dsts(1) = mod(rank + 1, np)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .false., graph, ierr)
  call MPI_Dist_graph_neighbors_count(graph, ni, n, flag, ierr)
  if (ni /= 1 .or. n /= 1 .or. flag) call fail(errs, 'dist graph', ni)
  call MPI_Comm_free(graph, ierr)

  ! a datatype's envelope and contents
  call MPI_Type_vector(3, 2, 5, MPI_DOUBLE_PRECISION, vec, ierr)
  call MPI_Type_get_envelope(vec, ni, na, nd, comb, ierr)
  if (comb /= MPI_COMBINER_VECTOR .or. ni /= 3 .or. nd /= 1) call fail(errs, 'envelope', comb)
  call MPI_Type_get_contents(vec, 4, 2, 2, ints, aints, types, ierr)
  if (ints(1) /= 3 .or. ints(2) /= 2 .or. ints(3) /= 5 .or. types(1) /= MPI_DOUBLE_PRECISION) &
      call fail(errs, 'contents', ints(1))
  call MPI_Type_free(vec, ierr)

  ! MPI_BUFFER_AUTOMATIC (a sentinel: passed as the buffer, it is not one): buffered sends of any size
  call MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0, ierr)
  do i = 1, 1000
    big(i) = i + rank
  end do
  call MPI_Bsend(big, 1000, MPI_INTEGER, 0, 3, MPI_COMM_SELF, ierr)
  if (ierr /= MPI_SUCCESS) call fail(errs, 'Bsend into MPI_BUFFER_AUTOMATIC', ierr)
  big = 0
  call MPI_Recv(big, 1000, MPI_INTEGER, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
  if (big(1000) /= 1000 + rank) call fail(errs, 'automatic buffer message', big(1000))
  call MPI_Comm_flush_buffer(MPI_COMM_SELF, ierr)
  if (ierr /= MPI_SUCCESS) call fail(errs, 'Comm_flush_buffer', ierr)

  ! MPI_SIZEOF, addresses, time
  call MPI_Sizeof(d, n, ierr)
  if (n /= 8) call fail(errs, 'sizeof double precision', n)
  call MPI_Sizeof(flag, n, ierr)
  if (n /= 4) call fail(errs, 'sizeof logical', n)
  call MPI_Get_address(d(1), a1, ierr)
  call MPI_Get_address(d(2), a2, ierr)
  if (MPI_Aint_diff(a2, a1) /= 8 .or. MPI_Aint_add(a1, 8_MPI_ADDRESS_KIND) /= a2) &
      call fail(errs, 'aint_diff', int(MPI_Aint_diff(a2, a1)))
  t0 = MPI_Wtime()
  t1 = MPI_Wtime()
  if (t1 < t0 .or. MPI_Wtick() <= 0d0) call fail(errs, 'wtime', 0)

  include 'mt_finish.inc'
  call MPI_Finalize(ierr)
end program
