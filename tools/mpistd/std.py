# SPDX-License-Identifier: BSD-3-Clause
"""The MPI standard's API as vmpi uses it: pympistandard's data, cut to MPI-4.1.

pympistandard 0.2.0 ships one data file, the MPI-5.0 API; it has no "introduced in" field, so MPI-4.1 is that
set less the 28 names MPI-5.0 added (the ABI queries MPI_Abi_* and the handle conversions MPI_*_toint and
MPI_*_fromint).  Everything else of the generator reads the standard through this module.
"""
import os
import re
import sys

VERSION = "0.2.0"  # the data set is the pinned package's: another version is another API
PYDEPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".deps", "py")
HINT = f"pympistandard {VERSION} is not installed in .deps/py: run `make deps`"

# MPI-5.0's additions (checked against the data by Standard(): exactly 28 names, so a new data set fails loudly)
MPI5_ONLY = re.compile(r"^mpi_abi_|_(toint|fromint)$")
MPI5_ONLY_COUNT = 28


def _import():
    """pympistandard from PYTHONPATH, else from the source tree's .deps/py (where `make deps` puts it)."""
    try:
        import pympistandard
    except ImportError:
        sys.path.insert(0, os.path.normpath(PYDEPS))
        try:
            import pympistandard
        except ImportError:
            sys.exit(f"mpistd: {HINT}")
    if pympistandard.__version__ != VERSION:
        sys.exit(f"mpistd: found pympistandard {pympistandard.__version__} at "
                 f"{os.path.dirname(pympistandard.__file__)}; {HINT}")
    return pympistandard


class Standard:
    """The MPI-4.1 procedures, keyed by their C spelling (MPI_Send)."""

    def __init__(self, abi=False):
        std = _import()
        # the bundled data only: the MPISTANDARD environment variable would otherwise swap the API silently
        std.use_api_version(1, force_bundled=True)
        self.std = std
        self.version = std.__version__
        procs = [p for p in std.PROCEDURES.values() if p.express.iso_c is not None]  # not MPI_F_sync_reg, MPI_Sizeof
        mpi5 = [p for p in procs if MPI5_ONLY.search(p.name)]
        if len(mpi5) != MPI5_ONLY_COUNT:
            sys.exit(f"mpistd: expected {MPI5_ONLY_COUNT} MPI-5.0-only procedures in pympistandard {VERSION}'s "
                     f"data, found {len(mpi5)}")
        if not abi:
            procs = [p for p in procs if not MPI5_ONLY.search(p.name)]
        # the data's keys are lower case; the real spelling is the C expression's
        self.procedures = {p.express.iso_c.name: p for p in procs}

    def procedure(self, name):
        """The procedure called `name` (C spelling), or None when MPI-4.1 has none."""
        return self.procedures.get(name)

    def forms(self, entry):
        """The C forms vmpi exports of a spec entry: [(expression, profile expression, large)], the int form and
        the standard's large-count form (MPI_X_c: MPI_Count counts, MPI_Aint displacements) where the entry's
        `large` says so (spec.Entry: by default where its entry points are generated or its area writes its _c
        forms by hand)."""
        express = self.procedure(entry.name).express
        out = [(express.iso_c, express.profile.iso_c, False)]
        if self.has_large(entry):
            out.append((express.embiggen.iso_c, express.embiggen.profile.iso_c, True))
        return out

    def has_large(self, entry):
        """Whether vmpi exports the _c form of the entry (forms)."""
        proc = self.procedure(entry.name)
        return entry.generated and entry.large and proc is not None and proc.has_embiggenment()


if __name__ == "__main__":
    # the build's configure check (CMakeLists.txt): the pinned package loads and its data is the expected set
    s = Standard()
    print(f"pympistandard {s.version}: {len(s.procedures)} MPI-4.1 procedures with a C binding")
