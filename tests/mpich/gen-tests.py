#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turns MPICH's test suite (test/mpi of MPICH's source) into CMake calls: which programs to build from
which sources with which -D flags (read from each area's Makefile.am, as automake would), and which runs
to register (each area's testlist, with its options, on the configured PE counts, matched against
tests/mpich/xfail).  Run by tests/mpich/CMakeLists.txt at configure time; its output defines
vmpi_mpich_program() and vmpi_mpich_test() calls (see there).

usage: gen-tests.py TESTDIR XFAIL PES OUT [FORTRAN]
  TESTDIR  MPICH's test/mpi directory      XFAIL  the expected-failures file
  PES      comma-separated PE counts        OUT    the CMake file to write
  FORTRAN  ON: the Fortran areas too (f77, f90)
"""
import fnmatch
import os
import re
import sys

AREAS = ["pt2pt", "coll", "comm", "group", "datatype", "rma", "info", "init", "errhan", "attr", "topo",
         "errors/coll", "f90/f90types", "part", "mpi_t"]  # part: partitioned point-to-point (MPI-4.0); mpi_t: the tools interface; errors/coll: argument and size checks of the collectives (MPI_ERRORS_RETURN); f90/f90types: the C test of MPI_Type_create_f90_*
# with Fortran: the Fortran tests of the same areas, mpif.h (f77), the mpi module (f90) and mpi_f08 (f08); not
# io, spawn
FORTRAN_AREAS = ["f77/" + a for a in ("attr", "coll", "comm", "datatype", "ext", "info", "init", "pt2pt", "rma",
                                      "topo", "profile")] + \
                ["f90/" + a for a in ("attr", "coll", "comm", "datatype", "ext", "info", "init", "misc", "pt2pt", "rma",
                                      "timer", "topo", "profile")] + \
                ["f08/" + a for a in ("attr", "coll", "comm", "datatype", "ext", "info", "init", "misc", "pt2pt", "rma",
                                      "subarray", "timer", "topo", "profile")]
NP_DEFAULT = 2        # runtests' default rank count for a line without one
TIME_DEFAULT = 180    # runtests' default time limit (s)


def vmpi_mpi_version():
    """MPI_VERSION.MPI_SUBVERSION of vmpi's mpi.h (a testlist's mpiversion= above it skips the test)."""
    h = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "mpi.h")).read()
    v = [re.search(rf"^#define {m} (\d+)$", h, re.M) for m in ("MPI_VERSION", "MPI_SUBVERSION")]
    if None in v:
        sys.exit("tests/mpich/gen-tests.py: include/mpi.h defines no MPI_VERSION or MPI_SUBVERSION")
    return tuple(int(x.group(1)) for x in v)


VMPI_MPI_VERSION = vmpi_mpi_version()
RESULT_KINDS = {"": "noerrors", "TestStatus": "status", "TestStatusNoErrors": "noerrors",
                "TestErrFatal": "status"}


def makefile_vars(path):
    """Variables of an automake Makefile.am (continuations joined, conditionals ignored: both branches'
    assignments are read, which is what we want for per-program variables)."""
    text = open(path).read().replace("\\\n", " ")
    out = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z0-9_]+)\s*(\+?=)\s*(.*)$", line)
        if not m:
            continue
        name, op, val = m.groups()
        val = val.split("#", 1)[0] if val.lstrip().startswith("#") else val
        out[name] = (out.get(name, "") + " " + val) if op == "+=" else val
    return out


def program(area, prog, mvars):
    """(sources, -D flags, language) of a program, as automake derives them; the language is c, or f77, f90 or
    f08 (the utilities it links: MPICH's Makefile_f77.mtest...)."""
    canon = re.sub(r"[^A-Za-z0-9_]", "_", prog)
    ext = mvars.get("AM_DEFAULT_SOURCE_EXT", ".f" if area.startswith("f77/") else ".c").strip()
    srcs = [s for s in mvars.get(canon + "_SOURCES", prog + ext).split() if s.endswith((".c", ".f", ".f90"))]
    flags = [f for f in mvars.get(canon + "_CPPFLAGS", "").split() if f.startswith("-D")]
    lang = "c"
    if any(s.endswith((".f", ".f90")) for s in srcs):
        lang = area.split("/")[0]
    return [f"{area}/{s}" for s in srcs], flags, lang


def testlist_lines(area, testdir):
    """(line number, file, fields) of an area's testlist: testlist, or testlist.in as configure would
    write it with MPICH's defaults (@largetest@ lines off, subdirectory lines dropped)."""
    for fname in ("testlist", "testlist.in"):
        path = os.path.join(testdir, area, fname)
        if os.path.exists(path):
            break
    else:
        return
    for n, raw in enumerate(open(path), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@largetest@"):    # --enable-large-tests is off by default (memory, time)
            continue
        if "@" in line:                       # @rmadir@, @spawndir@...: subdirectories of other areas
            continue
        yield n, f"{area}/{fname}", line.split()


def parse_line(fields):
    prog, np, opts = fields[0], NP_DEFAULT, {"args": [], "env": [], "xfail": []}
    if len(fields) > 1 and fields[1].isdigit():
        np = int(fields[1])
    for f in fields[2:]:
        if "=" not in f:                      # runtests ignores such words too
            continue
        k, v = f.split("=", 1)
        if k == "arg":
            opts["args"].append(v)
        elif k == "env":
            opts["env"].append(v)
        elif k == "xfail":
            opts["xfail"].append(v)
        else:
            opts[k] = v
    return prog, np, opts


VARIANTS = ("procs", "abi")


def read_xfail(path):
    """[(pattern, kind, reason, line number, hits, variant)]: kind 'fail' (must fail), 'flaky' (either), 'skip'
    (not run), 'pass' (must pass: a variant's line overriding another); variant: the line is for runs as jobs
    of several OS processes only (its pattern began with 'procs:'), or for the programs built against the MPI
    standard ABI (mpich-abi/: 'abi:'), or for every run (None)."""
    out = []
    for n, raw in enumerate(open(path), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            sys.exit(f"{path}:{n}: a pattern needs a reason: {line}")
        pat, reason = parts
        variant = next((v for v in VARIANTS if pat.startswith(v + ":")), None)
        if variant:
            pat = pat[len(variant) + 1:]
        kind = "fail"
        for k in ("flaky", "skip", "pass"):
            if reason.startswith(k + ":"):
                kind, reason = k, reason[len(k) + 1:].strip()
        out.append([pat, kind, reason, n, 0, variant])
    return out


def expectation(xfails, tname, variant=None):
    """(expect, reason) of run `tname`: the first line that matches it, of the variant's lines first when it
    runs as one (the others hold there too unless a line of the variant says otherwise)."""
    for want in ((variant, None) if variant else (None,)):
        for x in xfails:
            if x[5] == want and fnmatch.fnmatchcase(tname, x[0]):
                x[4] += 1
                return x[1], f"{x[2]} (xfail:{x[3]})"
    return "pass", ""


def mem_gb():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1e6
    except OSError:
        pass
    return 0


def cmake_str(s):
    return "[==[" + s.replace(";", ",") + "]==]"


def main():
    testdir, xfail_path, pes, out_path = sys.argv[1:5]
    fortran = len(sys.argv) > 5 and sys.argv[5] in ("ON", "1", "TRUE", "YES")
    pes = [int(p) for p in pes.split(",") if p]
    xfails = read_xfail(xfail_path)
    mem = mem_gb()
    programs, runs, seen = {}, [], set()
    for area in AREAS + (FORTRAN_AREAS if fortran else []):
        mvars = makefile_vars(os.path.join(testdir, area, "Makefile.am"))
        for lineno, where, fields in testlist_lines(area, testdir):
            prog, np, opts = parse_line(fields)
            name = f"{area}/{prog}"
            # MPICH's own settings (MPIR_CVAR_*) select MPICH's algorithms: the same run for vmpi
            env = [e for e in opts["env"] if not e.startswith("MPIR_CVAR_")]
            key = (name, np, tuple(opts["args"]), tuple(env))
            if key in seen:
                continue
            seen.add(key)
            if name not in programs:
                srcs, flags, lang = program(area, prog, mvars)
                # a source Makefile.am names but the package lacks (f08/ext's c2f902c.c): the program then does
                # not build, which its runs report
                programs[name] = ([x for x in srcs if os.path.exists(os.path.join(testdir, x))], flags, lang)
            limit = opts.get("timeLimit", "")
            limit = int(limit) if limit.isdigit() else TIME_DEFAULT  # runtests ignores a non-number too
            kind = RESULT_KINDS.get(opts.get("resultTest", ""))
            if kind is None:
                sys.exit(f"{where}:{lineno}: unknown resultTest in: {' '.join(fields)}")
            skip = ""
            if "mpiversion" in opts:
                want = tuple(int(x) for x in opts["mpiversion"].split("."))
                if want > VMPI_MPI_VERSION:
                    skip = f"needs MPI {opts['mpiversion']} (testlist mpiversion=)"
            if "mem" in opts and float(opts["mem"]) > mem:
                skip = f"needs {opts['mem']} GB (testlist mem=), this machine has {mem:.1f}"
            for p in sorted({min(p, np) for p in pes}):
                tname = f"{name}:{np}x{p}"
                if opts["args"]:
                    tname += ":" + ",".join(opts["args"])
                if env:
                    tname += ":" + ",".join(env)
                expect, reason = expectation(xfails, tname)
                pexpect, preason = expectation(xfails, tname, "procs")
                aexpect, areason = expectation(xfails, tname, "abi")
                if skip:
                    expect, reason = "skip", skip
                    pexpect, preason = aexpect, areason = expect, reason
                labels = ["mpich", f"mpich/{area}"]
                if opts["xfail"]:
                    labels.append("mpich-xfail")  # MPICH expects it to fail too (its tickets)
                if opts.get("strict", "").lower() == "false":
                    labels.append("mpich-nonstrict")  # uses what MPI does not promise (runtests' strict=false)
                runs.append((tname, name, np, p, limit, kind, expect, reason, pexpect, preason, opts["args"], env,
                             labels, aexpect, areason))
    with open(out_path, "w") as f:
        f.write(f"# generated by tests/mpich/gen-tests.py from {testdir}: do not edit\n")
        for name, (srcs, flags, lang) in programs.items():
            f.write(f"vmpi_mpich_program({name} \"{';'.join(srcs)}\" \"{';'.join(flags)}\" {lang})\n")
        for (tname, name, np, p, limit, kind, expect, reason, pexpect, preason, args, env, labels, aexpect,
             areason) in runs:
            f.write(f"vmpi_mpich_test({cmake_str(tname)} {name} {np} {p} {limit} {kind} {expect} "
                    f"{cmake_str(reason)} {pexpect} {cmake_str(preason)} \"{';'.join(args)}\" \"{';'.join(env)}\" "
                    f"\"{';'.join(labels)}\" {aexpect} {cmake_str(areason)})\n")
    for pat, kind, reason, n, hits, variant in xfails:
        if hits == 0:
            print(f"{xfail_path}:{n}: '{pat}' matches no MPICH test run (stale? PEs {pes})", file=sys.stderr)


if __name__ == "__main__":
    main()
