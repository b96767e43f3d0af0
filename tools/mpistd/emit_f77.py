# SPDX-License-Identifier: BSD-3-Clause
"""--what f77: the C side of the Fortran bindings (mpif.h and the mpi module): for every function vmpi exports,
`pmpi_x_` as gfortran calls it (arguments by reference, hidden CHARACTER lengths at the end) converting its
arguments and calling the C PMPI_X (or, where the mpi_f08 specific is the glue and the entry point is
generated, inlining its body: emit_c.inline_name), with `mpi_x_` a weak alias (a Fortran profiling tool defines
mpi_x_ and calls pmpi_x_).  Helpers: src/fortran/fortran.h.

The conversion of a parameter follows its type in the standard's Fortran binding (the kind's f90 rendering):
INTEGER and INTEGER(KIND=...) are the C integers and handles (vmpi's handles are ints) passed as they are or
dereferenced, LOGICAL becomes 0/1, CHARACTER*(*) a NUL-terminated copy, a choice buffer (<type>) has its
sentinels translated, STATUS is passed as it is where it is aligned as C's, else copied.  A function with a
parameter that has no rule here (a callback, an attribute value) has its glue hand-written in src/fortran/ and
says so in the spec (fortran = "hand"); the generator refuses one that does not.
"""
import re
import sys

import emit_c
import emit_f08
import emit_fmod

SUPPRESSED = ("argc", "argv")  # C parameters the Fortran binding has not: NULL
RETURN_TYPES = {"WALL_TIME": "double", "TICK_RESOLUTION": "double", "DISPLACEMENT": "MPI_Aint",
                "LOCATION_SMALL": "MPI_Aint"}
INTEGERS = {"INTEGER": "MPI_Fint", "INTEGER(KIND=MPI_ADDRESS_KIND)": "MPI_Aint",
            "INTEGER(KIND=MPI_COUNT_KIND)": "MPI_Count", "INTEGER(KIND=MPI_OFFSET_KIND)": "MPI_Offset"}
# the parameter holding the number of statuses of an array of them
STATUS_COUNTS = ("count", "incount")


class Unknown(Exception):
    pass


def ftype(q):
    return str(q.kind.express.f90)


def f08_type(attrs):
    """The Fortran type of an mpi_f08 declaration (emit_f08.declarations) as the f90 binding writes it: the
    glue of a large-count form is made from its mpi_f08 binding (the only one it has)."""
    base = attrs[0].upper()
    if base == "TYPE(*)":
        return "<type>"
    if base == "TYPE(C_PTR)":
        return "INTEGER(KIND=MPI_ADDRESS_KIND)"
    if base.startswith("TYPE(MPI_"):
        return "INTEGER"  # a handle is one INTEGER; a status is its kind, STATUS
    if base.startswith("CHARACTER"):
        return "CHARACTER*(*)"
    return "EXTERNAL" if base.startswith("PROCEDURE") else base


# count kinds that give a choice buffer its own element count, when a DATATYPE follows them at once
SECTION_COUNTS = ("POLYXFER_NUM_ELEM_NNI", "POLYDTYPE_NUM_ELEM_NNI", "POLYDTYPE_NUM_ELEM")
BYTE_COUNTS = ("POLYNUM_BYTES_NNI",)  # a buffer's size in bytes (MPI_Pack's outsize)
# counts per process, not the buffer's (MPI_Gather's recvcount, MPI_Scatter's sendcount): (procedure name
# pattern, parameter)
PER_PROCESS = ((re.compile(r"gather|alltoall", re.I), "recvcount"),
               (re.compile(r"scatter|alltoall", re.I), "sendcount"))
# buffers whose address is all the call takes (a section's is its first element's)
ADDRESS_ONLY = {("MPI_Get_address", "location"), ("MPI_Free_mem", "base"), ("MPI_Win_detach", "base")}


def array(q, c_arrays):
    return q._parseset.get("length") not in (None, "") or bool(c_arrays.get(q.name))


def sections(entry, c, f90, f08, fargs, bufs, values, target):
    """The body of PMPI_X_f08's path for noncontiguous array sections (src/fortran/fsection.h), which calls
    PMPI_X_f08 (`target`) again with contiguous descriptors: for each section a datatype over it (the buffer
    followed at once by a count and a DATATYPE of its own, both by value here: replaced by 1 and that type) or
    a copy (any other: a count and datatype of two buffers, counts per process; refused for a call that may
    outlive it: ASYNCHRONOUS in the standard's binding, or an _init), whose size is checked against the count
    where the buffer has one.  A refusal is raised on the call's communicator or window."""
    params = list(f90.parameters)
    names = [q.name.lower() for q in params]
    c_arrays = {p.name: bool(p.array) for p in c.parameters}
    attrs = {n.lower(): [x.upper().replace(" ", "") for x in a] for a, ns in emit_f08.declarations(f08)
             for n, _ in ns}
    on = next((q for q in params if q.kind.name in ("COMMUNICATOR", "WINDOW") and not array(q, c_arrays)), None)
    if on is not None and on.name.lower() not in values:
        on = None  # (an output: MPI_Win_allocate's window)
    raise_on = (f"VMPI_F_ON_WIN, {on.name.lower()}" if on is not None and on.kind.name == "WINDOW" else
                f"VMPI_F_ON_COMM, {on.name.lower()}" if on is not None else "VMPI_F_ON_COMM, MPI_COMM_WORLD")
    out, done = [], []
    for b in bufs:
        q = params[names.index(b)]
        d = q.direction.value.lower()
        how = [{"in": "VMPI_F_IN", "out": "VMPI_F_OUT", "inout": "VMPI_F_IN | VMPI_F_OUT"}[d]]
        if "ASYNCHRONOUS" in attrs[b] or entry.name.endswith("_init"):  # (MPI_Psend_init's is not, in the data)
            how.append("VMPI_F_ASYNC")
        how = " | ".join(how)
        if (entry.name, b) in ADDRESS_ONLY:
            out.append(f"vmpi_f_desc0 {b}_c;")
            out.append(f"void *{b}_a = {b}->base_addr;")
            continue
        i = names.index(b)
        # the buffer's count (the first after it, past other buffers) and datatype, when they are scalars
        cnt = next((x for x in params[i + 1:] if x.kind.name in SECTION_COUNTS + BYTE_COUNTS), None)
        dt = next((x for x in params[i + 1:] if x.kind.name == "DATATYPE"), None)
        per_process = cnt is not None and any(r.search(entry.name) and cnt.name.lower() == n for r, n in PER_PROCESS)
        if cnt is not None and (array(cnt, c_arrays) or per_process or cnt.name.lower() not in values):
            cnt = None
        if cnt is not None and cnt.kind.name in SECTION_COUNTS and (dt is None or array(dt, c_arrays)):
            cnt = None
        nxt = params[i + 1:i + 3]
        # (not when a buffer comes just before: MPI_Reduce's two share them)
        typed = (cnt is not None and nxt == [cnt, dt] and cnt.kind.name in SECTION_COUNTS and
                 (i == 0 or params[i - 1].kind.name != "BUFFER"))
        out.append(f"vmpi_f_sect {b}_s;")
        out.append(f"vmpi_f_desc0 {b}_c;")
        if typed:
            n, t = cnt.name.lower(), dt.name.lower()
            if t not in values:
                raise Unknown(f"{entry.name}: the datatype of buffer {b} does not pass by value")
            out.append(f"void *{b}_a = vmpi_f_sect_typed(&{b}_s, {b}, {n}, {t}, {how});")
        else:
            need = ("-1, MPI_DATATYPE_NULL" if cnt is None else f"{cnt.name.lower()}, MPI_BYTE"
                    if cnt.kind.name in BYTE_COUNTS else f"{cnt.name.lower()}, {dt.name.lower()}")
            out.append(f"void *{b}_a = vmpi_f_sect_copy(&{b}_s, {b}, {need}, {how});")
        out.append(f"if (VMPI_UNLIKELY({b}_s.mode != VMPI_F_PLAIN)) {{")
        out.append(f"    if ({b}_s.mode == VMPI_F_FAILED) {{")
        out += [f"        vmpi_f_sect_end(&{p}_s);" for p in reversed(done)]
        out.append(f"        int rc = vmpi_f_sect_fail(&{b}_s, \"{c.name}\", \"{b}\", {raise_on});")
        out.append("        if (ierror)")
        out.append("            *ierror = rc;")
        out.append("        return;")
        out.append("    }")
        if typed:
            out.append(f"    if ({b}_s.mode == VMPI_F_TYPED) {{")
            out.append(f"        {n} = 1;")
            out.append(f"        {t} = {b}_s.type;")
            out.append("    }")
        out.append("}")
        done.append(b)
    out.append(f"{target}({', '.join(vmpi_f_desc(a) if a in bufs else a for a in fargs)});")
    out += [f"vmpi_f_sect_end(&{b}_s);" for b in reversed(done)]
    return out


def vmpi_f_desc(b):
    """A contiguous buffer's descriptor at the address sections() found for buffer `b`"""
    return f"vmpi_f_desc_at(&{b}_c, {b}_a, {b})"


def glue(standard, entry, large=False, sections_only=False):
    """The C text of pmpi_x_ (and its alias) for `entry`, or where the mpi_f08 specific is the glue itself
    (emit_f08.direct) of PMPI_X_f08 (inputs by value, MPI_X_f08 its alias; a generated entry point's body
    inlined, vmpi_entry_X) and pmpi_x_ calling it; `large`: of its large-count form (mpi_f08 only, the one binding
    that has it), PMPI_X_f08c, or pmpi_x_c_ under a module procedure; `sections_only`: only the path for array
    sections of a PMPI_X_f08 with choice buffers (vmpi_f08_X_sections, f08sect.c), or None."""
    proc = standard.procedure(entry.name)
    if large:
        f90, c = proc.express.embiggen.f08, proc.express.embiggen.iso_c
        types = {n.lower(): f08_type(attrs) for attrs, names in emit_f08.declarations(f90) for n, _ in names}
    else:
        f90, c = proc.express.f90, proc.express.iso_c
        types = {q.name.lower(): ftype(q) for q in f90.parameters}
    fparams = {q.name.lower(): q for q in f90.parameters}
    f08 = proc.express.embiggen.f08 if large else proc.express.f08
    direct = f08 is not None and emit_f08.direct(f08)
    values = emit_f08.by_value(f08) if direct else set()  # by value in the mpi_f08 specific's glue

    def val(name):
        return name if name in values else f"*{name}"
    decls, vdecls, hidden, pre, post, args = [], [], [], [], [], []
    ierror = None
    requests = any(q.kind.name == "REQUEST" and q._parseset.get("length") not in (None, "") for q in f90.parameters)
    for q in f90.parameters:
        name, k, d = q.name.lower(), q.kind.name, q.direction.value.lower()
        t = types[name]
        if k == "ERROR_CODE" and name == "ierror":
            ierror = name
            decls.append(f"MPI_Fint *{name}")
        elif t == "<type>":
            decls.append(f"void *{name}")
        elif t == "CHARACTER*(*)":
            decls.append(f"char *{name}")
            hidden.append(f"size_t {name}_len")
        elif t == "LOGICAL" or t in INTEGERS:
            decls.append(f"{INTEGERS.get(t, 'MPI_Fint')} *{name}")
            if name in values:
                vdecls.append((len(decls) - 1, f"{INTEGERS[t]} {name}"))
        else:
            raise Unknown(f"{entry.name}: parameter {q.name} ({k}, Fortran {t}) has no rule: write its glue in "
                          "src/fortran/ and set fortran = \"hand\" in its spec entry")
    for p in c.parameters:
        name, k = p.name, p.kind.name
        q = fparams.get(name)
        if q is None:
            if name in SUPPRESSED:
                args.append("NULL" if p.pointer_level or p.array else "0")
                continue
            raise Unknown(f"{entry.name}: C parameter {name} ({k}) is not in the Fortran binding")
        t, d = types[name], q.direction.value.lower()
        array = q._parseset.get("length") not in (None, "") or bool(p.array)
        pointer = array or p.pointer_level > 0
        if t == "<type>":
            args.append(f"vmpi_f_buf_at(fsent, {name})")
        elif t == "CHARACTER*(*)":
            # an info key or value loses its leading blanks too (MPI-4.1 10: "stripped")
            strip = "vmpi_f_str_in_info" if entry.name.startswith("MPI_Info_") else "vmpi_f_str_in"
            pre.append(f"char *{name}_c = {strip + '(' + name + ', ' if d == 'in' else 'vmpi_f_str_room('}"
                       f"{name}_len);")
            post.append(f"vmpi_f_str_free({name}_c);" if d == "in" else
                        f"vmpi_f_str_out({name}_c, {name}, {name}_len, rc);")
            args.append(f"{name}_c")
        elif k == "STATUS" and not array:
            # the Fortran status itself where it is aligned as C's, else a copy (fortran.h)
            pre.append(f"vmpi_f_status_tmp {name}_t;")
            if d == "in":
                args.append(f"vmpi_f_status_view({name}, &{name}_t)")
            else:
                pre.append(f"MPI_Status *{name}_p = vmpi_f_status_at(fsent, {name}, &{name}_t);")
                args.append(f"{name}_p")
                post.append(f"vmpi_f_status_done({name}_p, &{name}_t, {name});")
        elif k == "STATUS":
            n = next((s for s in STATUS_COUNTS if s in fparams), None)
            if n is None:
                raise Unknown(f"{entry.name}: the number of statuses of {name} is in none of {STATUS_COUNTS}")
            pre.append(f"MPI_Status *{name}_c = vmpi_f_statuses({name}, {val(n)});")
            post.append(f"vmpi_f_statuses_done({name}_c, {name}, {val(n)});")
            args.append(f"{name}_c")
        elif k == "WEIGHT":
            args.append(f"vmpi_f_weights_at(fsent, {name})")
        elif t == "LOGICAL" and not pointer:
            args.append(f"*{name} != 0")
        elif t == "LOGICAL" and not array:
            pre.append(f"int {name}_c = 0;")
            args.append(f"&{name}_c")
            post.append(f"*{name} = {name}_c != 0;")
        elif k == "INDEX" and d == "out" and requests:
            # an index into the requests: Fortran counts from 1 (MPI_UNDEFINED stays)
            args.append(name)
            if array:
                post.append(f"vmpi_f_indices_out({name}, rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS ? *outcount : 0);")
            else:
                post.append(f"if (rc == MPI_SUCCESS && *{name} != MPI_UNDEFINED) (*{name})++;")
        elif p.array.endswith("[3]"):
            args.append(f"(int (*)[3]){name}")  # MPI_Group_range_incl's triplets: INTEGER RANGES(3, *)
        elif pointer and name in values and not array:
            args.append(f"&{name}")  # an input C takes through a pointer (MPI_Cancel's request)
            continue
        elif pointer:
            args.append(name)  # the C integers or handles themselves (vmpi's handles are ints)
        else:
            args.append(val(name))
            continue
        if name in values:
            raise Unknown(f"{entry.name}: {name} passes by value in mpi_f08 (emit_f08.by_value) but its glue "
                          "takes it by reference")
    if any("fsent" in x for x in pre + args):
        pre.insert(0, "const char *fsent = vmpi_f_sent(); /* where the sentinels are: once a call */")
    ret = c.return_kind.name
    fname, cname = c.name.lower(), "P" + c.name
    if sections_only and not direct:
        return None
    if direct and entry.entry_generated:  # the entry point's body, inlined (emit_c: binding/<area>_entry.h)
        cname = emit_c.inline_name(c.name)
        if emit_c.checked(c):  # its check record, declared before the rank is looked up (emit_c.wrapper)
            pre.insert(0, "VMPI_CHK(ck);")
            args.append("&ck")
    lines = []
    if ret == "ERROR_CODE":
        if ierror is None:
            raise Unknown(f"{entry.name}: no IERROR in the Fortran binding")
        head = f"VMPI_EXPORT void p{fname}_("
        call = f"{cname}({', '.join(args)})"
        body = pre + [f"int rc = {call};"] + post + [f"if ({ierror}) /* absent in a call through mpi_f08 */",
                                                        f"    *{ierror} = rc;"]
    else:
        rtype = RETURN_TYPES.get(ret)
        if rtype is None:
            raise Unknown(f"{entry.name}: return kind {ret} has no rule")
        head = f"VMPI_EXPORT {rtype} p{fname}_("
        body = pre + [f"{rtype} r = {cname}({', '.join(args)});"] + post + ["return r;"]
    params = ", ".join(decls + hidden or ["void"])
    if direct:
        # the body is the mpi_f08 specific's, PMPI_X_f08 (its inputs by value) with MPI_X_f08 a weak alias;
        # pmpi_x_ (not for a large-count form: mpi_f08 has those alone) loads the inputs and calls it.  With a
        # choice buffer, which mpi_f08 passes as a descriptor (fsection.h), the body is vmpi_f08_X, inlined
        # into both (PMPI_X_f08 passes a contiguous descriptor's address, a section goes to sections())
        f08name = f"{c.name[:-2]}_f08c" if large else f"{c.name}_f08"
        vlist = list(decls)
        for i, d in vdecls:
            vlist[i] = d
        vparams = ", ".join(vlist)
        fargs = [d.split()[-1].lstrip("*") for d in decls]
        # (the choice buffers of the mpi_f08 binding: MPI_Buffer_detach's is a TYPE(C_PTR) there)
        f08base = {n.lower(): a[0].upper() for a, ns in emit_f08.declarations(f08) for n, _ in ns}
        bufs = [a for a in fargs if types[a] == "<type>" and f08base.get(a) == "TYPE(*)"]
        target = f"P{f08name}"
        if bufs:
            # the body, inlined into PMPI_X_f08 for contiguous buffers; sections take a cold path that calls
            # PMPI_X_f08 again with contiguous buffers
            target = f"vmpi_f08_{c.name[4:]}"
            lines.append(f"static inline __attribute__((always_inline)) void {target}({vparams})")
            lines += ["{"] + ["    " + b for b in body] + ["}"]
            dlist = [f"CFI_cdesc_t *{a}" if a in bufs else d for a, d in zip(fargs, vlist)]
            dparams = ", ".join(dlist)
            slow = f"{target}_sections"
            if sections_only:  # (f08sect.c, outside libvmpi's LTO unit: emit_f08sect.py)
                return "\n".join([f"VMPI_EXPORT void P{f08name}({dparams});", f"void {slow}({dparams})", "{"] +
                                  ["    " + b for b in sections(entry, c, f90, f08, fargs, bufs, values,
                                                              f"P{f08name}")] + ["}"])
            lines.append(f"void {slow}({dparams}) __attribute__((cold));")
            lines.append(f"VMPI_EXPORT void P{f08name}({dparams})")
            lines.append("{")
            lines.append(f"    if (VMPI_UNLIKELY(!({' && '.join(f'vmpi_f_contig({b})' for b in bufs)}))) {{")
            lines.append(f"        {slow}({', '.join(fargs)});")
            lines.append("        return;")
            lines.append("    }")
            lines.append(f"    {target}({', '.join(f'{a}->base_addr' if a in bufs else a for a in fargs)});")
            lines.append("}")
        else:
            if sections_only:
                return None
            lines.append(f"VMPI_EXPORT void P{f08name}({vparams})")
            lines += ["{"] + ["    " + b for b in body] + ["}"]
            dparams = vparams
        lines.append(f"VMPI_EXPORT __attribute__((weak, alias(\"P{f08name}\"))) void {f08name}({dparams});")
        if large:
            return "\n".join(lines)
        # (with buffers, the body inlined here too: mpif.h's buffers are addresses, not descriptors)
        body = [f"{target}({', '.join(f'*{a}' if a in values else a for a in fargs)});"]
    lines.append(head + params + ")")
    lines.append("{")
    lines += ["    " + b for b in body]
    lines.append("}")
    lines.append(f"{head.replace('VMPI_EXPORT ', 'VMPI_F77_ALIAS(' + fname + ') ').replace(' p' + fname, ' ' + fname)}"
                 f"{params});")
    return "\n".join(lines)


def glued(standard, entries):
    """(entry, large) of every glue emit() writes"""
    for e in entries:
        if not e.generated or e.fortran != "generated":
            continue
        proc = standard.procedure(e.name)
        if proc.express.f90 is None:
            continue  # C only (MPI_Comm_c2f and the other conversions)
        yield e, False
        if standard.has_large(e) and not emit_f08.same_kinds(proc):  # (else mpi_f08's int specific serves)
            yield e, True


def emit(standard, entries, out):
    out.write("/* SPDX-License-Identifier: BSD-3-Clause */\n")
    out.write(f"/* Generated by tools/mpistd/gen.py --what f77 from pympistandard {standard.version} (MPI-4.1) and\n"
              " * the spec files of src/binding/spec: do not edit.  The Fortran glue (tools/mpistd/emit_f77.py). */\n")
    out.write('#include "fortran/fortran.h"\n#include "fortran/fsection.h"\n')
    for area in sorted({e.area for e in entries if e.entry_generated}):
        out.write(f'#include "binding/{area}_entry.h"\n')
    out.write("\n")
    out.write("/* mpi_x_, what a program calls, is a weak alias of pmpi_x_ */\n")
    out.write("#define VMPI_F77_ALIAS(name) VMPI_EXPORT __attribute__((weak, alias(\"p\" #name \"_\")))\n\n")
    errors = []
    for e, large in glued(standard, entries):
        try:
            out.write(glue(standard, e, large) + "\n\n")
        except Unknown as x:
            errors.append(str(x))
    if errors:
        sys.exit("mpistd: " + "\nmpistd: ".join(errors))
    # MPI_SIZEOF's specifics (the mpi module's generic, emit_fmod.py): X, of any rank, is a descriptor
    out.write("/* MPI_SIZEOF's specifics (tools/mpistd/emit_fmod.py's SIZEOF) */\n")
    for _, name, size in emit_fmod.SIZEOF:
        out.write(f"VMPI_EXPORT void vmpi_sizeof_{name}_(const void *x, MPI_Fint *size, MPI_Fint *ierror)\n"
                  f"{{\n    (void)x;\n    *size = {size};\n    if (ierror) /* optional in mpi_f08 */\n"
                  f"        *ierror = MPI_SUCCESS;\n}}\n")
