! SPDX-License-Identifier: BSD-3-Clause
! The Fortran half of iso/fortran: ALLOCATE and DEALLOCATE called from C (gfortran calls malloc and free).
module iso_falloc
    use iso_c_binding
    implicit none
    interface
        function mpix_iso_rank(p) bind(C, name="MPIX_Iso_rank")
            import :: c_ptr, c_int
            type(c_ptr), value :: p
            integer(c_int) :: mpix_iso_rank
        end function
    end interface
contains
    ! An array of n doubles 1, 2, ..., n made with ALLOCATE, returned as a C pointer.
    function falloc(n) bind(C, name="falloc") result(p)
        integer(c_int), value :: n
        type(c_ptr) :: p
        real(c_double), pointer :: a(:)
        integer :: i
        allocate(a(n))
        do i = 1, n
            a(i) = i
        end do
        p = c_loc(a)
    end function

    ! DEALLOCATE of an array falloc made (possibly on another rank).
    subroutine ffree(p, n) bind(C, name="ffree")
        type(c_ptr), value :: p
        integer(c_int), value :: n
        real(c_double), pointer :: a(:)
        call c_f_pointer(p, a, [n])
        deallocate(a)
    end subroutine

    ! The slot of an ALLOCATABLE local array of n doubles (freed when the function returns).
    function fslot_allocatable(n) bind(C, name="fslot_allocatable") result(slot)
        integer(c_int), value :: n
        integer(c_int) :: slot
        real(c_double), allocatable, target :: b(:)
        allocate(b(n))
        b = 1
        slot = mpix_iso_rank(c_loc(b))
    end function
end module
