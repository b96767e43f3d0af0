# SPDX-License-Identifier: BSD-3-Clause
"""vmpi's side of the bindings: src/binding/spec/<area>.toml, which MPI functions vmpi has (README.md there).

The generator emits what these files list, never a list of its own, so adding a function is one line there.
An area file may begin with settings of the whole area (keys before the first table); the tables are the
functions.
"""
import glob
import os
import sys
import tomllib

# the keys an entry may have and their values (a tuple: those values; a type: any value of it); an unknown
# one is a typo, refused.  What they mean: src/binding/spec/README.md
KEYS = {
    "status": ("removed",),
    "tag": ("send", "recv"),
    "checks": dict,
    "extra": list,
    "ck": (True,),
    "raises": (True,),
    "caller": ("rank", "local", "any time", "anyone"),
    "report": str,
    "large": (True, False),
    "fortran": ("hand", "none"),
    "impl": str,
    "persistent": (True,),
}
# the settings of an area
AREA_KEYS = {"entry_points": ("generated", "hand-written"),
             "caller": KEYS["caller"], "report": KEYS["report"], "ck": KEYS["ck"],
             "arguments": ("implementation",), "datatypes": ("any",), "large_flag": (True,)}
# the first check of an entry point, by who may call the function (check.h): a rank between MPI_Init and
# MPI_Finalize; a local call, which a thread that is no rank may make in a running job too; a rank at any time
# (MPI-4.1 11.2.1: info objects, sessions, error classes); anyone, any thread at any time (MPI_Initialized,
# MPI_Get_version, MPI_Abort: no check)
CALLER_CHECK = {"rank": "vmpi_chk_ranked", "local": "vmpi_chk_local", "any time": "vmpi_chk_in_rank",
                "anyone": None}


class Entry:
    def __init__(self, name, area, fields, area_settings):
        self.name = name  # MPI_Send
        self.area = area  # pt2pt (src/binding/pt2pt.c)
        self.status = fields.get("status", "exported")
        # whether tools/mpistd/gen.py --what c writes the entry point (else src/binding/<area>.c has it)
        self.entry_generated = area_settings.get("entry_points") == "generated" and self.generated
        self.tag = fields.get("tag")  # the role of a TAG parameter named `tag`: "send" or "recv"
        self.checks = fields.get("checks", {})  # parameter name -> the C check replacing its kind's ("": none)
        self.extra = fields.get("extra", [])  # further C checks, after the parameters'
        # the implementation gets the check record, to say why it failed (the entry's, else the area's)
        self.ck = fields.get("ck", area_settings.get("ck", False))
        self.raises = fields.get("raises", False)  # the implementation reports its errors itself
        # the C expression that reports a failure ({err}: the error class, {fn}: the name called), where the
        # call's object (emit_c.REPORTERS) is not the one whose handler does (the entry's, else the area's)
        self.report = fields.get("report", area_settings.get("report"))
        # "implementation": the entry point checks the caller, the call's object, request and info pointers only,
        # and the implementation the rest (the collectives: which arguments matter depends on the root, the
        # communicator's kind, MPI_IN_PLACE); kinds.passed says what it gets
        self.arguments = area_settings.get("arguments", "entry point")
        # "any": a datatype argument may be any datatype, committed or not (the queries), else a committed one
        self.datatypes = area_settings.get("datatypes", "committed")
        # the implementation gets `bool large`, true from the _c form (the datatype constructors: a type made
        # by one records its counts as large, MPI-4.1 5.1.13)
        self.large_flag = area_settings.get("large_flag", False)
        # the entry whose implementation this one calls (MPI_Type_size_x: MPI_Type_size's), with its request if it
        # has one (MPI_Igather and MPI_Gather_init: MPI_Gather's, which the blocking form calls with NULL), and
        # whether it is a persistent form (its schedule kept for MPI_Start: binding/persist.h)
        self.impl_of = fields.get("impl", name)
        self.persistent = fields.get("persistent", False)
        # who may call it (CALLER_CHECK): the entry's, else the area's, else a rank between Init and Finalize
        self.caller = fields.get("caller", area_settings.get("caller", "rank"))
        # the _c form too, where the standard has one: by default where the entry points are generated, else
        # where the entry says `large = true` (its file has the _c entry point)
        self.large = fields.get("large", self.entry_generated)
        # the Fortran glue: "generated" (tools/mpistd/emit_f77.py), "hand" (src/fortran/), "none" (not yet)
        self.fortran = fields.get("fortran", "generated")

    @property
    def generated(self):
        """Whether vmpi/mpi_proto.h declares it (the removed functions' prototypes are hand-written)."""
        return self.status == "exported"

    @property
    def short(self):
        """The name without MPI_: Send (VMPI_WEAK's argument, the implementation's suffix)."""
        return self.name[len("MPI_"):]

    @property
    def impl(self):
        """The hand-written implementation function the generated entry points call."""
        return "vmpi_b_" + self.impl_of[len("MPI_"):]


def files(spec_dir):
    return sorted(glob.glob(os.path.join(spec_dir, "*.toml")))


def _check_value(where, key, value, allowed):
    if isinstance(allowed, type):
        if not isinstance(value, allowed):
            sys.exit(f"{where}: {key} must be a {allowed.__name__}, not {value!r}")
    elif value not in allowed:
        sys.exit(f"{where}: {key} = {value!r}, expected one of {allowed}")


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
        settings = {k: v for k, v in table.items() if not isinstance(v, dict)}
        for key, value in settings.items():
            if key not in AREA_KEYS:
                sys.exit(f"{path}: unknown area setting {key!r} (known: {', '.join(AREA_KEYS)}; a function is a "
                         f"table, [MPI_X])")
            _check_value(path, key, value, AREA_KEYS[key])
        for name, fields in table.items():
            if name in settings:
                continue
            where = f"{path}: [{name}]"
            if name in seen:
                sys.exit(f"{where}: also in {seen[name]}")
            for key, value in fields.items():
                if key not in KEYS:
                    sys.exit(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
                _check_value(where, key, value, KEYS[key])
            for p, c in fields.get("checks", {}).items():
                if not isinstance(c, str):
                    sys.exit(f"{where}: checks.{p} must be a string (a C expression, or \"\" for none)")
            if not all(isinstance(x, str) for x in fields.get("extra", [])):
                sys.exit(f"{where}: extra must be a list of strings (C expressions)")
            seen[name] = path
            entries.append(Entry(name, area, fields, settings))
    return entries
