! SPDX-License-Identifier: BSD-3-Clause
! The Fortran globals of fortran_globals.c: module variables (initialized, zero, allocatable, a pointer
! initialized to a target), COMMON blocks (initialized by BLOCK DATA, and zero), SAVE variables (explicit,
! implied by an initializer, and zero).  privf_set writes a value into all of them, privf_get reads one.
module privf_mod
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int), bind(C, name="privf_modvar") :: modvar = 2
  integer(c_int) :: modzero
  integer(c_int), allocatable :: marr(:)
  integer(c_int), target :: tgt = 5
  integer(c_int), target :: tgt2 = 0
  integer(c_int), pointer :: mptr => tgt
contains
  ! SAVE variables: explicit (sv), implied by an initializer (implied), zero (szero).  set /= 0: all become
  ! v.  Returns the one `which` names.
  integer(c_int) function privf_saved(set, v, which)
    integer(c_int), value :: set, v, which
    integer(c_int), save :: sv = 6
    integer(c_int) :: implied = 7
    integer(c_int), save :: szero
    if (set /= 0) then
      sv = v
      implied = v
      szero = v
    end if
    select case (which)
    case (0)
      privf_saved = sv
    case (1)
      privf_saved = implied
    case default
      privf_saved = szero
    end select
  end function privf_saved
end module privf_mod

block data privf_blockdata
  implicit none
  integer :: cb1, cb2
  common /privblk/ cb1, cb2
  data cb1, cb2 / 3, 4 /
end block data privf_blockdata

subroutine privf_set(v) bind(C, name="privf_set")
  use privf_mod
  implicit none
  integer(c_int), value :: v
  integer :: cb1, cb2, cz
  common /privblk/ cb1, cb2
  common /privzero/ cz
  integer(c_int) :: r
  modvar = v
  modzero = v
  cb1 = v
  cb2 = v
  cz = v
  if (allocated(marr)) deallocate(marr)
  allocate(marr(mod(v, 1000) + 1))
  marr = v
  tgt = v
  tgt2 = v
  if (mod(v, 2) == 1) then
    mptr => tgt2
  else
    mptr => tgt
  end if
  r = privf_saved(1, v, 0)
end subroutine privf_set

! 0 modvar, 1 modzero, 2 cb1, 3 cb2, 4 cz, 5 SAVE sv, 6 size(marr) (0 if not allocated), 7 marr's last
! element, 8 mptr, 9 1 if mptr points at tgt2, 10 tgt, 11 SAVE implied, 12 SAVE szero
integer(c_int) function privf_get(what) bind(C, name="privf_get")
  use privf_mod
  implicit none
  integer(c_int), value :: what
  integer :: cb1, cb2, cz
  common /privblk/ cb1, cb2
  common /privzero/ cz
  privf_get = -99
  select case (what)
  case (0)
    privf_get = modvar
  case (1)
    privf_get = modzero
  case (2)
    privf_get = cb1
  case (3)
    privf_get = cb2
  case (4)
    privf_get = cz
  case (5)
    privf_get = privf_saved(0, 0, 0)
  case (6)
    privf_get = 0
    if (allocated(marr)) privf_get = size(marr)
  case (7)
    if (allocated(marr)) privf_get = marr(size(marr))
  case (8)
    privf_get = mptr
  case (9)
    privf_get = 0
    if (associated(mptr, tgt2)) privf_get = 1
  case (10)
    privf_get = tgt
  case (11)
    privf_get = privf_saved(0, 0, 1)
  case (12)
    privf_get = privf_saved(0, 0, 2)
  end select
end function privf_get
