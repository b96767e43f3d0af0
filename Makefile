# SPDX-License-Identifier: BSD-3-Clause
# The README's two commands:
#   make demo   installs what is missing (as root; otherwise prints the command), builds, runs the demo
#   make test   the same, then the whole test suite (with MPICH's, tests/mpich), the test suite again in the
#               emulated multi-process mode (2 and 3 process groups), under ASan/UBSan and, its runs on two
#               PEs or more with fewer than 64 ranks, under ThreadSanitizer
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
# The runs TSan checks in make test: those on 2 PEs or more with fewer than 64 ranks (389 runs), and the unit
# tests whose threads share queues and channels.  On one PE ranks run one at a time, switched with
# synchronization: no race to find there.  The 64- and 128-rank runs (162) are left out for CI's time: each
# takes about three times as long as a smaller run under TSan (ring backlogs and full channels, which they
# reach more often, go unchecked by make test).  make test-tsan TSAN_TESTS=. runs every test of the suite.
# Measured on 2 cores shared with other builds (load 13-20): these runs take 8 min at -j2 (the whole 2-PE half,
# from the per-test times, 20 to 40; the whole suite about 40), the TSan build from scratch 6 min.
TSAN_TESTS ?= :([1-9]|[1-5][0-9])x([2-9]|[1-9][0-9])|^unit/test_(queues|pool|match|chan)$$
# The areas the sanitizer builds also run in the emulated multi-process mode (2 process groups): those whose
# protocols differ between processes (TSan: their runs with fewer than 64 ranks).
SAN_EMUL_TESTS ?= ^(pt2pt|coll|comm|rma|armci)/
# TSan in the emulated mode: the same areas, their runs with fewer than 20 ranks (about 5 minutes here)
TSAN_EMUL_TESTS ?= $(SAN_EMUL_TESTS)
JOBS ?= 2
# MPICH's source, for its test suite (tools/mpich-src; ignored by git)
MPICH_SRC ?= $(CURDIR)/.deps/mpich
# pympistandard, the MPI Forum's machine-readable API that tools/mpistd generates the C prototypes from: pinned,
# since its one data file is the API.  Into .deps/py (ignored by git), where CMake looks for it: pip --target,
# because Debian's pip refuses to install into the system's Python (PEP 668)
PYDEPS = $(CURDIR)/.deps/py
PYMPISTANDARD_VERSION = 0.2.0
DEPS = cmake ninja-build gcc g++ pkg-config libboost-context-dev libhwloc-dev libxxhash-dev mpich libmpich-dev \
       openmpi-bin libopenmpi-dev gfortran libmetis-dev python3 python3-matplotlib \
       libarmci-mpi-dev autoconf dpkg-dev libucx-dev ucx-utils libpmix-dev python3-pip

.PHONY: all deps build demo test test-emul test-procs test-asan test-tsan bench clean

all: build

deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing packages; run as root:"; echo "  sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi
	tools/mpich-src $(MPICH_SRC)
	@[ -d $(PYDEPS)/pympistandard-$(PYMPISTANDARD_VERSION).dist-info ] || \
	  python3 -m pip install -q --upgrade --target $(PYDEPS) pympistandard==$(PYMPISTANDARD_VERSION)

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVMPI_MPICH_SRC=$(MPICH_SRC) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/bin/vmpicc -O2 -o $(BUILD)/ring examples/ring.c
	$(BUILD)/bin/vmpirun -n 64 -p 2 $(BUILD)/ring
	$(BUILD)/bin/vmpirun +p2 $(BUILD)/ring +vp64
	$(BUILD)/bin/vmpirun -n 10000 -p 2 $(BUILD)/ring
	@echo "the same program as a job of 2 OS processes (UCX between them, vmpirun their PMIx server):"
	$(BUILD)/bin/vmpirun --procs 2 -n 64 -p 1 $(BUILD)/ring
	@echo "a Fortran program (the mpi module), 64 ranks on 2 PEs, moved at every migration point:"
	$(BUILD)/bin/vmpifort -O2 -J $(BUILD) -o $(BUILD)/ring_f examples/ring.f90
	$(BUILD)/bin/vmpirun -n 64 -p 2 --balancer Rotate $(BUILD)/ring_f
	@echo "the same C program compiled once against the MPI-5.0 standard ABI's mpi.h (no vmpi header), linked with libmpi_abi:"
	cc -O2 -fPIC -I $(BUILD)/include/abi -c examples/ring.c -o $(BUILD)/ring_abi.o
	$(BUILD)/bin/vmpicc -abi -o $(BUILD)/ring_abi $(BUILD)/ring_abi.o
	$(BUILD)/bin/vmpirun -n 64 -p 2 --balancer Rotate $(BUILD)/ring_abi
	$(BUILD)/bin/vmpicc -O2 -o $(BUILD)/am_search examples/am_search.c
	$(BUILD)/bin/vmpirun -n 1000 -p 2 $(BUILD)/am_search
	@echo "ARMCI: a load-imbalanced LU (lu-block.c's distribution) on 64 ARMCI processes, balanced by ARMCI_Migrate"
	$(BUILD)/bin/vmpicc -O2 -Ibench -o $(BUILD)/armci_lu bench/armci_lu.c -lm
	$(BUILD)/bin/vmpirun -n 64 -p 2 --balancer GreedyRefine $(BUILD)/armci_lu -n 480 -b 16 -d block -c -m 4 -r 1

test: build
	tools/run-tests $(BUILD) $(JOBS) -E '^tools/(ckpt_procs|recover|resize|lost_conn)$$'
	$(MAKE) --no-print-directory test-emul
	$(MAKE) --no-print-directory test-procs
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-tsan

# The suite again in the emulated multi-process mode (--emulate-procs K: every operation between the K process
# groups goes through the remote transport): 2 groups of each test's PEs (ranks move within a group), then 3
# groups on at least 3 PEs (tests/run-test.sh) for the areas whose protocols differ with a third process
# (PROCS3_TESTS, as test-procs).  MPICH's suite, the tools' scripts and the unit tests run once,
# above.  In every multi-process stage (here, test-procs, the sanitizers') tools/run-tests leaves out the runs
# with fewer ranks than processes: they would be one-process jobs again.
EMUL_EXCLUDE ?= mpich|^tools/|^unit/|scale/
test-emul: build
	MT_EMULATE_PROCS=2 MT_EMULATE_PES=each tools/run-tests $(BUILD) $(JOBS) -E '$(EMUL_EXCLUDE)'
	MT_EMULATE_PROCS=3 tools/run-tests $(BUILD) $(JOBS) -R '$(PROCS3_TESTS)' -E '$(EMUL_EXCLUDE)'

# The suite as jobs of several OS processes (vmpirun --procs K: UCX between them, wired up through PMIx),
# each process with the test's PEs: 2 processes; 3 for the areas whose protocols differ between processes;
# 2 over TCP on the loopback interface on 2 emulated nodes (UCX_TLS=tcp,self, MT_NODES=2, VMPI_NET_PEER=1: as
# between machines, endpoints in UCX's PEER error mode, no kernel copy) for point-to-point,
# collectives and ranks moving between processes (adapt/migrate, balance, move_procs), RMA and ARMCI without the kernel's copy (VMPI_NET_CMA=0, as between nodes) over shared memory
# (messages: UCX has no RMA lane here) and over TCP with UCX's RMA forced on (VMPI_NET_RMA_EMULATED=1: the
# windows' remote keys, UCX's emulated get and put), and 2 started by
# Open MPI's mpirun (its PMIx server) for point-to-point; and checkpoints of jobs of 2 and 3 processes
# restarted (tests/tools/ckpt_procs.sh), jobs killed and recovered (tests/tools/recover.sh), and jobs that change their number of processes
# (tests/tools/resize.sh), a connection lost between nodes (tests/tools/lost_conn.sh); MPICH's suite (tests/mpich) but its RMA area and its Fortran
# tests (the same glue over the same C calls; vmpi's fortran/ tests run as 2 processes above) as 2 processes, against
# the procs: lines of tests/mpich/xfail (its RMA tests move gigabytes by message between processes: minutes;
# vmpi's own rma/ tests run above; the 798 others took 2 min 53 s at -j2 on 2 cores under load 7-10, 5 min 45 s
# under load 10-14).  A failing run is tried once more: rare failures between processes
# are open bugs (each seen once in several hundred runs under ctest's load, not reproduced alone, listed in
# docs/ARCHITECTURE.md's limits: a deadlock report in MPI_Allreduce (two faults of the check that fit it fixed
# since, unconfirmed), coll/allreduce:64x2 over TCP and
# coll/determinism:7x2 under ASan; a SIGSEGV outside any rank, coll/bcast:13x2 over TCP).  PROCS_EXCLUDE: what does not run between processes yet, each with
# its reason in tests/procs-exclude.
PROCS_TESTS ?= ^((pt2pt|coll|comm|attr|datatype|init|errors|rma|armci|ckpt|fortran|abi)/|adapt/(ckpt_errors|migrate|balance|move_procs|preempted):)
PROCS3_TESTS ?= ^(pt2pt|coll|comm|rma|armci)/|^init/(procname|wtime):|^attr/predef:|^adapt/(migrate|balance|move_procs):
MPICH_PROCS_TESTS ?= ^mpich/
MPICH_PROCS_EXCLUDE ?= ^mpich/rma/|^mpich/f(77|90|08)/
PROCS_EXCLUDE ?= $(or $(shell grep -v '^\#' tests/procs-exclude | cut -d' ' -f1 | paste -sd'|'),^none$$)
test-procs: build
	MT_PROCS=2 tools/run-tests $(BUILD) $(JOBS) -R '$(PROCS_TESTS)' -E '$(PROCS_EXCLUDE)' --repeat until-pass:2
	MT_PROCS=3 tools/run-tests $(BUILD) $(JOBS) -R '$(PROCS3_TESTS)' -E '$(PROCS_EXCLUDE)' --repeat until-pass:2
	MT_PROCS=2 MT_NODES=2 VMPI_NET_PEER=1 UCX_TLS=tcp,self UCX_NET_DEVICES=lo tools/run-tests $(BUILD) $(JOBS) -R '^(pt2pt|coll)/|^adapt/(migrate|balance|move_procs):' -E '$(PROCS_EXCLUDE)' \
	  --repeat until-pass:2
	MT_PROCS=2 VMPI_NET_CMA=0 tools/run-tests $(BUILD) $(JOBS) -R '^(rma|armci)/' -E '$(PROCS_EXCLUDE)' \
	  --repeat until-pass:2
	MT_PROCS=2 VMPI_NET_CMA=0 VMPI_NET_RMA_EMULATED=1 UCX_TLS=tcp,self UCX_NET_DEVICES=lo tools/run-tests $(BUILD) $(JOBS) \
	  -R '^(rma|armci)/' -E '$(PROCS_EXCLUDE)' --repeat until-pass:2
	MT_PROCS=2 MT_LAUNCHER=openmpi tools/run-tests $(BUILD) $(JOBS) -R '^(pt2pt|errors)/' -E '$(PROCS_EXCLUDE)' \
	  --repeat until-pass:2
	tools/run-tests $(BUILD) $(JOBS) -R '^tools/(ckpt_procs|recover|resize|lost_conn)$$'
	MT_PROCS=2 tools/run-tests $(BUILD) $(JOBS) -R '$(MPICH_PROCS_TESTS)' -E '$(MPICH_PROCS_EXCLUDE)' --repeat until-pass:2

# ASan and UBSan: the suite, the emulated mode, and point-to-point and collectives between 2 real processes
# (the network plugin; a failing run there is tried once more, for the rare deadlock report said above).
# Not the collectives' runs over more than INT_MAX bytes (coll/large_coll with MT_LARGE_COUNT: byte loops over
# 2 GiB in a Debug build, minutes each; under TSan, with its shadow memory, the emulated run was killed for
# memory); pt2pt/large_count's stay under ASan (seconds), not under TSan (one to two minutes each).  Between
# processes (emulated or real), runs of 20 ranks or more stay out: their paths are those of the smaller runs,
# taken more often (the 64-rank runs were half of these stages' 18 minutes); the single-process stage keeps them.
SAN_LARGE_EXCLUDE = large_coll:.*LARGE_COUNT
TSAN_LARGE_EXCLUDE = large_(coll|count):.*LARGE_COUNT
SAN_MANY_RANKS = :([2-9][0-9]|[1-9][0-9][0-9])x
ASAN_EXCLUDE ?= scale/|iso/exhaust|iso/overflow|iso/oom|$(SAN_LARGE_EXCLUDE)
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DVMPI_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DVMPI_MPICH_TESTS=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=0 tools/run-tests $(ASAN_BUILD) $(JOBS) -E '$(ASAN_EXCLUDE)'
	ASAN_OPTIONS=detect_leaks=0 MT_EMULATE_PROCS=2 MT_EMULATE_PES=each tools/run-tests $(ASAN_BUILD) $(JOBS) -R '$(SAN_EMUL_TESTS)' \
	    -E '$(ASAN_EXCLUDE)|$(SAN_MANY_RANKS)'
	ASAN_OPTIONS=detect_leaks=0 MT_PROCS=2 tools/run-tests $(ASAN_BUILD) $(JOBS) -R '^(pt2pt|coll)/' -E '$(PROCS_EXCLUDE)|$(ASAN_EXCLUDE)|$(SAN_MANY_RANKS)' \
	    --repeat until-pass:2

# ThreadSanitizer (fiber-aware: every rank is a TSan fiber), suppressions with their reasons in tests/tsan.supp;
# then point-to-point and collectives between 2 real processes, runs of fewer than 20 ranks (about 4 minutes
# here; their first run found a race on the idle report and a use-after-free at the job's end)
test-tsan: deps
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DVMPI_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVMPI_MPICH_TESTS=OFF >/dev/null
	cmake --build $(TSAN_BUILD) -j $(JOBS)
	tools/run-tests $(TSAN_BUILD) $(JOBS) -E 'scale/|iso/exhaust|iso/oom' -R '$(TSAN_TESTS)'
	MT_EMULATE_PROCS=2 tools/run-tests $(TSAN_BUILD) $(JOBS) -R '$(TSAN_EMUL_TESTS)' \
	    -E 'scale/|iso/exhaust|iso/oom|$(SAN_MANY_RANKS)|$(TSAN_LARGE_EXCLUDE)'
	MT_PROCS=2 tools/run-tests $(TSAN_BUILD) $(JOBS) -R '^(pt2pt|coll)/' \
	    -E '$(PROCS_EXCLUDE)|scale/|$(SAN_MANY_RANKS)|$(TSAN_LARGE_EXCLUDE)' --repeat until-pass:2

bench: build
	bench/run --vmpicc $(BUILD)/bin/vmpicc --vmpirun $(BUILD)/bin/vmpirun

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
