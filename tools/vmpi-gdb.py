# SPDX-License-Identifier: BSD-3-Clause
"""gdb commands for vmpi programs whose globals are privatized (docs/PRIVATIZATION.md).

Each rank runs in its own copy of the program, mapped by libvmpi into the rank's isomalloc slot, which gdb's
list of shared libraries does not have.  Load with `source build/bin/vmpi-gdb.py` (or from ~/.gdbinit):

  vmpi-rank N      load the program's symbols at rank N's copy (breakpoints, lines, globals of rank N)
  vmpi-copies      list the copies: rank, base address

Copies are found in /proc/PID/maps: the mappings of the program file at offset 0 inside the isomalloc range,
in address order (rank r's slot is the r-th); the process's own copy (the one ld.so loaded) never runs."""
import struct

import gdb

ISO_BASE = 0x200000000000  # --iso-base's default; VMPI_ISO_BASE overrides it
_loaded = None  # the copy whose symbols are loaded
_prog = None  # the program file (gdb forgets it when its symbol file is dropped)


def _copies():
    inf = gdb.selected_inferior()
    if inf.pid == 0:
        raise gdb.GdbError("vmpi: no process (run the program first)")
    global _prog
    prog = _prog = gdb.current_progspace().filename or _prog
    env_base = None
    try:
        with open("/proc/%d/environ" % inf.pid, "rb") as f:
            for kv in f.read().split(b"\0"):
                if kv.startswith(b"VMPI_ISO_BASE="):
                    env_base = int(kv.split(b"=", 1)[1], 0)
    except OSError:
        pass
    lo = env_base if env_base is not None else ISO_BASE
    entry = 0  # the process's copy holds the entry point (AT_ENTRY): leave it out
    with open("/proc/%d/auxv" % inf.pid, "rb") as f:
        aux = f.read()
    for k in range(0, len(aux) - 15, 16):
        key, val = struct.unpack_from("<QQ", aux, k)
        if key == 9:
            entry = val
    bases = []
    with open("/proc/%d/maps" % inf.pid) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 6 or int(fields[2], 16) != 0 or fields[5] != prog:
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if start >= lo and not start <= entry < end:
                bases.append(start)
    return prog, sorted(bases)


class VmpiCopies(gdb.Command):
    """List the ranks' copies of the program: rank, base address."""

    def __init__(self):
        super().__init__("vmpi-copies", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        prog, bases = _copies()
        for r, b in enumerate(bases):
            print("rank %d: copy of %s at %#x" % (r, prog, b))


class VmpiRank(gdb.Command):
    """vmpi-rank N: load the program's symbols at rank N's copy."""

    def __init__(self):
        super().__init__("vmpi-rank", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        try:
            r = int(arg)
        except ValueError:
            raise gdb.GdbError("usage: vmpi-rank N")
        prog, bases = _copies()
        if not 0 <= r < len(bases):
            raise gdb.GdbError("vmpi: no copy for rank %d (%d copies: is the program built with "
                               "-privatize=auto, and have the ranks started?)" % (r, len(bases)))
        # gdb would resolve the program's names in the process's copy (the main symbol file) first: keep
        # only the chosen rank's copy
        global _loaded
        if _loaded is not None:
            gdb.execute("remove-symbol-file -a %#x" % _loaded, to_string=True)
        gdb.execute("symbol-file", to_string=True)
        gdb.execute("add-symbol-file %s -o %#x" % (prog, bases[r]), to_string=True)
        gdb.execute("nosharedlibrary", to_string=True)
        gdb.execute("sharedlibrary", to_string=True)
        _loaded = bases[r] + 0x1000  # an address inside the copy's text
        print("vmpi: symbols of %s at rank %d's copy (%#x)" % (prog, r, bases[r]))


VmpiCopies()
VmpiRank()
