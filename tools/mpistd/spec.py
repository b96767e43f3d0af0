# SPDX-License-Identifier: BSD-3-Clause
"""vmpi's side of the bindings: src/binding/spec/<area>.toml, which MPI functions vmpi has (README.md there).

The generator emits what these files list, never a list of its own, so adding a function is one line there.
"""
import glob
import os
import sys
import tomllib

# the keys an entry may have and their values (None: any); an unknown one is a typo, refused
KEYS = {"status": ("removed",)}


class Entry:
    def __init__(self, name, area, fields):
        self.name = name  # MPI_Send
        self.area = area  # pt2pt (src/binding/pt2pt.c)
        self.status = fields.get("status", "exported")

    @property
    def generated(self):
        """Whether vmpi/mpi_proto.h declares it (the removed functions' prototypes are hand-written)."""
        return self.status == "exported"


def files(spec_dir):
    return sorted(glob.glob(os.path.join(spec_dir, "*.toml")))


def load(spec_dir):
    """Every entry of every area file, in file order then entry order."""
    entries, seen = [], {}
    paths = files(spec_dir)
    if not paths:
        sys.exit(f"mpistd: no *.toml in {spec_dir}")
    for path in paths:
        area = os.path.splitext(os.path.basename(path))[0]
        with open(path, "rb") as f:
            try:
                table = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                sys.exit(f"{path}: {e}")
        for name, fields in table.items():
            where = f"{path}: [{name}]"
            if not isinstance(fields, dict):
                sys.exit(f"{where}: not a table")
            if name in seen:
                sys.exit(f"{where}: also in {seen[name]}")
            for key, value in fields.items():
                if key not in KEYS:
                    sys.exit(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
                if KEYS[key] is not None and value not in KEYS[key]:
                    sys.exit(f"{where}: {key} = {value!r}, expected one of {KEYS[key]}")
            seen[name] = path
            entries.append(Entry(name, area, fields))
    return entries
