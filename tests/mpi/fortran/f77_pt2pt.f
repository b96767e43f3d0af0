! SPDX-License-Identifier: BSD-3-Clause
! Point-to-point from a fixed-form program with mpif.h: statuses (one, arrays, MPI_STATUS_IGNORE and
! MPI_STATUSES_IGNORE), wildcards, probe and MPI_GET_COUNT, derived datatypes on Fortran arrays (a row of a
! column-major matrix, a structure addressed from MPI_BOTTOM), requests in flight across migration points,
! and the program's COMMON block and SAVE variables, which are per rank, checked after every migration.
      PROGRAM F77PT2PT
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, LEFT, RIGHT, ERRS, STEP, I, J, N, CNT
      INTEGER STATUS(MPI_STATUS_SIZE), STATS(MPI_STATUS_SIZE, 4)
      INTEGER SBUF(MPI_STATUS_SIZE + 1)
      INTEGER REQS(4), IDX, ROWTYPE, STYPE, BLENS(2), TYPES(2)
      INTEGER(KIND=MPI_ADDRESS_KIND) DISPS(2)
      INTEGER IBUF(10), JBUF(10)
      DOUBLE PRECISION A(4, 5), B(5), D
!     what MPI_BOTTOM reaches must not be kept in registers: in COMMON (MPI-4.1 19.1.17)
      INTEGER SI
      DOUBLE PRECISION SD
      COMMON /BOTTOM/ SD, SI
      INTEGER COUNTER, MYRANK
      COMMON /STATE/ COUNTER, MYRANK
      INTEGER SAVED
      SAVE SAVED
      DATA SAVED /0/
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT = MOD(RANK + NP - 1, NP)
      RIGHT = MOD(RANK + 1, NP)
      COUNTER = 0
      MYRANK = RANK
      DO STEP = 1, 6
!       a ring exchange with MPI_SENDRECV, and one with wildcards
        CALL MPI_SENDRECV(RANK * 100 + STEP, 1, MPI_INTEGER, RIGHT,
     &       STEP, I, 1, MPI_INTEGER, LEFT, STEP, MPI_COMM_WORLD,
     &       STATUS, IERR)
        IF (I .NE. LEFT * 100 + STEP) CALL FAIL(ERRS, 'sendrecv', I)
        IF (STATUS(MPI_SOURCE) .NE. LEFT) CALL FAIL(ERRS, 'source',
     &       STATUS(MPI_SOURCE))
        IF (STATUS(MPI_TAG) .NE. STEP) CALL FAIL(ERRS, 'tag',
     &       STATUS(MPI_TAG))
!       requests in flight across the migration point
        DO I = 1, 10
          IBUF(I) = RANK * 1000 + STEP * 10 + I
        END DO
        CALL MPI_IRECV(JBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE,
     &       MPI_ANY_TAG, MPI_COMM_WORLD, REQS(1), IERR)
        CALL MPI_ISEND(IBUF, 10, MPI_INTEGER, RIGHT, 50 + STEP,
     &       MPI_COMM_WORLD, REQS(2), IERR)
        CALL AMPI_MIGRATE(MPI_INFO_NULL, IERR)
        IF (IERR .NE. MPI_SUCCESS) CALL FAIL(ERRS, 'migrate', IERR)
        CALL MPI_WAITALL(2, REQS, STATS, IERR)
        IF (STATS(MPI_SOURCE, 1) .NE. LEFT .OR.
     &      STATS(MPI_TAG, 1) .NE. 50 + STEP) CALL FAIL(ERRS,
     &      'waitall status', STATS(MPI_SOURCE, 1))
        CALL MPI_GET_COUNT(STATS(1, 1), MPI_INTEGER, N, IERR)
        IF (N .NE. 10) CALL FAIL(ERRS, 'get_count', N)
        IF (REQS(1) .NE. MPI_REQUEST_NULL) CALL FAIL(ERRS,
     &      'request not freed', REQS(1))
        DO I = 1, 10
          IF (JBUF(I) .NE. LEFT * 1000 + STEP * 10 + I)
     &        CALL FAIL(ERRS, 'isend data', JBUF(I))
        END DO
        COUNTER = COUNTER + 1
        SAVED = SAVED + RANK
        IF (COUNTER .NE. STEP .OR. MYRANK .NE. RANK .OR.
     &      SAVED .NE. STEP * RANK) CALL FAIL(ERRS, 'globals', COUNTER)
      END DO
!     probe, then a receive of what it saw; MPI_STATUS_IGNORE
      CALL MPI_SEND(IBUF, MOD(RANK, 10) + 1, MPI_INTEGER, RIGHT, 9,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_PROBE(LEFT, 9, MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      IF (N .NE. MOD(LEFT, 10) + 1) CALL FAIL(ERRS, 'probe count', N)
      CALL MPI_RECV(JBUF, 10, MPI_INTEGER, LEFT, 9, MPI_COMM_WORLD,
     &     MPI_STATUS_IGNORE, IERR)
      IF (IERR .NE. MPI_SUCCESS) CALL FAIL(ERRS, 'recv ignore', IERR)
!     a status at two offsets 4 bytes apart, one 8-byte aligned and one
!     not (the glue passes the first as it is, copies the second): the
!     receive sets source, tag and count, and leaves MPI_ERROR alone
      DO J = 1, 2
        SBUF(J + MPI_ERROR - 1) = -7
        CALL MPI_SEND(IBUF, J + 2, MPI_INTEGER, RIGHT, 20 + J,
     &       MPI_COMM_WORLD, IERR)
        CALL MPI_RECV(JBUF, 10, MPI_INTEGER, LEFT, 20 + J,
     &       MPI_COMM_WORLD, SBUF(J), IERR)
        IF (SBUF(J + MPI_SOURCE - 1) .NE. LEFT .OR.
     &      SBUF(J + MPI_TAG - 1) .NE. 20 + J .OR.
     &      SBUF(J + MPI_ERROR - 1) .NE. -7) CALL FAIL(ERRS,
     &      'status at an offset', J)
        CALL MPI_GET_COUNT(SBUF(J), MPI_INTEGER, N, IERR)
        IF (N .NE. J + 2) CALL FAIL(ERRS, 'count at an offset', N)
      END DO
!     a row of a 4x5 column-major matrix: stride 4
      CALL MPI_TYPE_VECTOR(5, 1, 4, MPI_DOUBLE_PRECISION, ROWTYPE, IERR)
      CALL MPI_TYPE_COMMIT(ROWTYPE, IERR)
      DO J = 1, 5
        DO I = 1, 4
          A(I, J) = RANK * 100 + I * 10 + J
        END DO
      END DO
      CALL MPI_IRECV(B, 5, MPI_DOUBLE_PRECISION, LEFT, 3,
     &     MPI_COMM_WORLD, REQS(1), IERR)
      CALL MPI_ISEND(A(3, 1), 1, ROWTYPE, RIGHT, 3, MPI_COMM_WORLD,
     &     REQS(2), IERR)
      CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
      DO J = 1, 5
        IF (B(J) .NE. LEFT * 100 + 30 + J) CALL FAIL(ERRS, 'row',
     &      INT(B(J)))
      END DO
      CALL MPI_TYPE_FREE(ROWTYPE, IERR)
!     a structure of an INTEGER and a DOUBLE PRECISION, from MPI_BOTTOM
      BLENS(1) = 1
      BLENS(2) = 1
      TYPES(1) = MPI_INTEGER
      TYPES(2) = MPI_DOUBLE_PRECISION
      CALL MPI_GET_ADDRESS(SI, DISPS(1), IERR)
      CALL MPI_GET_ADDRESS(SD, DISPS(2), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(2, BLENS, DISPS, TYPES, STYPE, IERR)
      CALL MPI_TYPE_COMMIT(STYPE, IERR)
      SI = RANK
      SD = RANK + 0.5D0
!     (a no-op here, SI being in COMMON: that mpif.h's programs link)
      CALL MPI_F_SYNC_REG(SI)
      CALL MPI_SENDRECV_REPLACE(MPI_BOTTOM, 1, STYPE, RIGHT, 4, LEFT, 4,
     &     MPI_COMM_WORLD, STATUS, IERR)
      IF (SI .NE. LEFT .OR. SD .NE. LEFT + 0.5D0) CALL FAIL(ERRS,
     &     'struct from MPI_BOTTOM', SI)
      CALL MPI_TYPE_FREE(STYPE, IERR)
!     MPI_WAITANY and MPI_TESTALL over inactive and null requests
      REQS(1) = MPI_REQUEST_NULL
      CALL MPI_IRECV(I, 1, MPI_INTEGER, LEFT, 5, MPI_COMM_WORLD,
     &     REQS(2), IERR)
      CALL MPI_SEND(RANK, 1, MPI_INTEGER, RIGHT, 5, MPI_COMM_WORLD,
     &     IERR)
      CALL MPI_WAITANY(2, REQS, IDX, STATUS, IERR)
      IF (IDX .NE. 2 .OR. I .NE. LEFT) CALL FAIL(ERRS, 'waitany', IDX)
      CALL MPI_WAITANY(2, REQS, IDX, STATUS, IERR)
      IF (IDX .NE. MPI_UNDEFINED) CALL FAIL(ERRS, 'waitany done', IDX)
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, ERRS, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
        IF (ERRS .EQ. 0) THEN
          PRINT '(A)', ' No Errors'
        ELSE
          PRINT '(A,I0,A)', ' Found ', ERRS, ' errors'
        END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE FAIL(ERRS, WHAT, V)
      INTEGER ERRS, V
      CHARACTER*(*) WHAT
      ERRS = ERRS + 1
      WRITE (0, '(A,A,A,I0)') 'f77_pt2pt: ', WHAT, ': got ', V
      END
