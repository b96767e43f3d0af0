module fmod
  integer :: modvar = 2
end module
subroutine f_set(r) bind(C, name="f_set")
  use fmod
  integer, value :: r
  integer :: cb
  common /blk/ cb
  integer, save :: sv = 0
  modvar = r; cb = r; sv = r
  call f_keep(sv)
end subroutine
subroutine f_keep(x)
  integer :: x, kept
  save kept
  kept = x
end subroutine
integer function f_check(r) bind(C, name="f_check")
  use fmod
  integer, value :: r
  integer :: cb
  common /blk/ cb
  f_check = 0
  if (modvar /= r) f_check = f_check + 1
  if (cb /= r) f_check = f_check + 1
end function
