#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares vmpi's hand-written MPI prototypes (include/mpi.h and the headers it includes) with the generated
vmpi/mpi_proto.h, function by function, the large-count MPI_X_c forms it gives too: return type, number of
parameters, each parameter's type (with its const-ness; parameter names, whitespace and `T x[]` against
`T *x` do not count), and that each MPI_X has its PMPI_X twin.  Every difference is listed; those in the
--known file (vmpi's known deviations from the standard, each with its reason) are accepted, any other
fails, and so does a --known line that no longer matches a difference (it must go when the header is fixed).
Prints " No Errors" when it passes (ctest).

    check_proto.py --gen build/gen/include/vmpi/mpi_proto.h [-v]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cparse  # noqa: E402
import spec  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def compare(name, hand, gen):
    """The differences of one function's prototypes, as lines `MPI_X: ...`."""
    out = []
    if hand.ret != gen.ret:
        out.append(f"{name}: return type: vmpi '{hand.ret}', MPI-4.1 '{gen.ret}'")
    if len(hand.params) != len(gen.params):
        out.append(f"{name}: vmpi has {len(hand.params)} parameters, MPI-4.1 {len(gen.params)}: "
                   f"vmpi ({', '.join(hand.types())}), MPI-4.1 ({', '.join(gen.types())})")
        return out
    for i, (h, g) in enumerate(zip(hand.params, gen.params), 1):
        if h.type != g.type:
            what = "const" if h.type.replace("const ", "") == g.type.replace("const ", "") else "type"
            out.append(f"{name}: parameter {i} ({g.name}): {what}: vmpi '{h.type}', MPI-4.1 '{g.type}'")
    return out


def twins(protos, label):
    """Each MPI_X declared with its PMPI_X, the same prototype."""
    out = []
    for name, p in protos.items():
        if name.startswith("MPI_"):
            twin = protos.get("P" + name)
            if twin is None:
                out.append(f"{name}: {label} declares no P{name}")
            elif twin.ret != p.ret or twin.types() != p.types():
                out.append(f"{name}: {label} declares P{name} with another prototype")
        elif name[1:] not in protos:
            out.append(f"{name}: {label} declares no {name[1:]}")
    return out


def read_known(path):
    """The accepted differences: one per line as check_proto prints it; '#' starts a comment line."""
    known = []
    if path:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    known.append(line)
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", required=True, help="the generated vmpi/mpi_proto.h")
    ap.add_argument("--mpi-h", default=os.path.join(ROOT, "include", "mpi.h"),
                    help="vmpi's mpi.h, whose \"vmpi/x.h\" includes are read too (default: include/mpi.h)")
    ap.add_argument("--spec", default=os.path.join(ROOT, "src", "binding", "spec"),
                    help="the area files (default: src/binding/spec)")
    ap.add_argument("--known", default=os.path.join(ROOT, "tests", "unit", "mpi_proto_known.txt"),
                    help="the accepted differences (default: tests/unit/mpi_proto_known.txt)")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list the parameters spelled differently")
    args = ap.parse_args()

    hand = cparse.prototypes(args.mpi_h)
    gen = cparse.prototypes(args.gen)
    entries = spec.load(args.spec)
    diffs = twins(hand, "mpi.h") + twins(gen, "mpi_proto.h")
    compared = removed = large = 0
    spelled = []
    listed = set()
    for e in entries:
        listed.add(e.name)
        h, g = hand.get(e.name), gen.get(e.name)
        if h is None:
            diffs.append(f"{e.name}: in src/binding/spec/{e.area}.toml but not declared by vmpi's headers")
        if not e.generated:
            if g is not None:
                diffs.append(f"{e.name}: status = \"{e.status}\" but mpi_proto.h declares it")
            removed += h is not None
            continue
        if g is None:
            diffs.append(f"{e.name}: in src/binding/spec/{e.area}.toml but not in mpi_proto.h")
            continue
        forms = [(e.name, h, g)]
        # the large-count form, where the generator gives it (std.Standard.forms: an area whose entry points are
        # generated, unless large = false): mpi.h must declare it, and the same
        name_c = e.name + "_c"
        if name_c in gen:
            listed.add(name_c)
            large += 1
            if name_c not in hand:
                diffs.append(f"{name_c}: in mpi_proto.h (the large-count form of {e.name}) but not declared by "
                             "vmpi's headers")
            else:
                forms.append((name_c, hand[name_c], gen[name_c]))
        elif name_c in hand:
            listed.add(name_c)
            diffs.append(f"{name_c}: declared by vmpi's headers but mpi_proto.h has no large-count form of {e.name} "
                         f"(src/binding/spec/{e.area}.toml: entry points not generated, or large = false)")
        for name, h, g in forms:
            if h is None:
                continue
            compared += 1
            diffs += compare(name, h, g)
            if len(h.params) == len(g.params):
                for i, (hp, gp) in enumerate(zip(h.params, g.params), 1):
                    if hp.name != gp.name or hp.array != gp.array:
                        spelled.append(f"{name}: parameter {i}: vmpi '{hp.text}', MPI-4.1 '{gp.text}'")
    for name in hand:
        if name.startswith("MPI_") and name not in listed:
            diffs.append(f"{name}: declared by vmpi's headers but not in src/binding/spec")
    for name in gen:
        if name.startswith("MPI_") and name not in listed:
            diffs.append(f"{name}: in mpi_proto.h but not in src/binding/spec")

    known = read_known(args.known)
    unexpected = [d for d in diffs if d not in known]
    stale = [k for k in known if k not in diffs]
    for d in diffs:
        print(("known       " if d in known else "UNEXPECTED  ") + d)
    for k in stale:
        print("STALE KNOWN " + k)
    if args.verbose:
        for s in spelled:
            print("spelling    " + s)
    print(f"{compared} functions compared (MPI_ and PMPI_ each; {large} of them large-count _c forms), {removed} "
          f"hand-written as removed from the "
          f"standard; {len(diffs)} differences: {len(diffs) - len(unexpected)} known, {len(unexpected)} unexpected; "
          f"{len(stale)} stale known entries; {len(spelled)} parameters spelled differently (names, [] for *)")
    if unexpected or stale:
        sys.exit(1)
    print(" No Errors")


if __name__ == "__main__":
    main()
