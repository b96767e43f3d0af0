#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generates vmpi's MPI bindings from the MPI Forum's API (pympistandard, std.py) and vmpi's function lists
(src/binding/spec/*.toml, spec.py).

    gen.py --what proto --out build/gen/include/vmpi/mpi_proto.h
    gen.py --what impl --out build/gen/binding/impl.h
    gen.py --what c --area pt2pt --out build/gen/binding/pt2pt_entry.c
    gen.py --what centry --area pt2pt --out build/gen/binding/pt2pt_entry.h

--what names the output, one emitter module each (emit_<what>.py); --out is that output's path; --area, for
the outputs made per area (c), the area (src/binding/spec/<area>.toml).  Issue 21's later steps add their
outputs to WHAT (f77, f90, f08, abi, mpit, coverage: docs/research/mpi-standard-bindings.md).
"""
import argparse
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec  # noqa: E402
import std  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
WHAT = {"proto": "emit_proto", "impl": "emit_impl", "c": "emit_c", "centry": "emit_centry", "f77": "emit_f77",
        "fconst": "emit_fconst", "fmod": "emit_fmod", "f08": "emit_f08", "f08sect": "emit_f08sect", "abi_h": "emit_abi_h", "abi_c": "emit_abi_c",
        "abi_alias": "emit_abi_alias"}
PER_AREA = {"c", "centry"}


def resolve(standard, entries):
    """Refuses a spec that disagrees with the standard: a generated function must be in MPI-4.1's data, and a
    "removed" one must not (else its prototype could be generated); and keys about generated entry points in an
    area whose entry points are hand-written (they would do nothing)."""
    errors = []
    for e in entries:
        found = standard.procedure(e.name) is not None
        if e.generated and not found:
            errors.append(f"{e.area}.toml: [{e.name}] is not an MPI-4.1 procedure of pympistandard {standard.version}")
        elif e.status == "removed" and found:
            errors.append(f"{e.area}.toml: [{e.name}] has status = \"removed\" but the standard has it")
        generated_keys = (e.tag or e.checks or e.extra or e.ck or e.raises or e.report or e.caller != "rank" or
                          e.impl_of != e.name or e.persistent)
        if not e.entry_generated and generated_keys:
            errors.append(f"{e.area}.toml: [{e.name}] has keys for generated entry points, but its area's are "
                          "hand-written (entry_points = \"generated\" at the top of the file generates them)")
        if e.impl_of != e.name:
            t = next((x for x in entries if x.name == e.impl_of), None)
            if t is None or t.area != e.area or t.impl_of != t.name:
                errors.append(f"{e.area}.toml: [{e.name}] impl = \"{e.impl_of}\" is not an entry of the same area "
                              "with an implementation of its own")
        if e.persistent and e.impl_of == e.name:
            errors.append(f"{e.area}.toml: [{e.name}] is persistent: it calls a nonpersistent form's "
                          "implementation (impl)")
    if errors:
        sys.exit("mpistd: " + "\nmpistd: ".join(errors))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--what", required=True, choices=sorted(WHAT), help="the output to generate")
    ap.add_argument("--out", required=True, help="the output's path")
    ap.add_argument("--area", help="the area, for --what " + "|".join(sorted(PER_AREA)))
    ap.add_argument("--spec", default=os.path.join(ROOT, "src", "binding", "spec"),
                    help="the directory of the area files (default: src/binding/spec)")
    args = ap.parse_args()
    if (args.what in PER_AREA) != (args.area is not None):
        ap.error(f"--area goes with --what {'|'.join(sorted(PER_AREA))}, and only with it")

    standard = std.Standard(abi=args.what.startswith("abi"))  # the ABI's outputs: MPI-5.0's functions too
    entries = spec.load(args.spec)
    resolve(standard, entries)
    emitter = importlib.import_module(WHAT[args.what])
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp"
    try:
        with open(tmp, "w") as out:
            if args.area is None:
                emitter.emit(standard, entries, out)
            else:
                emitter.emit(standard, entries, out, args.area)
    except BaseException:
        os.remove(tmp)
        raise
    os.replace(tmp, args.out)  # a failed run leaves no half-written output for the build to use


if __name__ == "__main__":
    main()
