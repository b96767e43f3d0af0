# SPDX-License-Identifier: BSD-3-Clause
"""--what abi_c: libmpi_abi's tables and entry points (src/abi/abi.h says how the library is made).

For every C procedure of the standard (int and _c forms, less the C-Fortran conversions, less those written by
hand in src/abi/, HAND below) one entry point PMPI_X with MPI_X its weak alias, in the ABI's types: it
translates each argument by its parameter's kind (handles, statuses, ranks and tags with their wildcards, the
enumerated values of VALUE_KINDS, MPI_IN_PLACE and the other pointer constants), calls vmpi's function
(vmpi_native_PMPI_X) and translates the results and the returned error class back.  A function vmpi does not
have (MPI-IO, dynamic processes) fails with MPI_ERR_UNSUPPORTED_OPERATION naming it.  A parameter of a kind
that needs a translation this file does not know stops the generator.
"""
import abi
import cdecl
import emit_abi_h

HANDLE_KINDS = {"COMMUNICATOR": "Comm", "DATATYPE": "Datatype", "REQUEST": "Request", "INFO": "Info",
                "GROUP": "Group", "WINDOW": "Win", "OPERATION": "Op", "ERRHANDLER": "Errhandler",
                "SESSION": "Session", "MESSAGE": "Message", "FILE": "File"}
# integer parameters whose values differ: kind -> abi.VALUES / abi.BITS group
VALUE_KINDS = {"THREAD_LEVEL": "thread", "COMM_COMPARISON": "compare", "GROUP_COMPARISON": "compare",
               "TOPOLOGY_TYPE": "topology", "SPLIT_TYPE": "split", "LOCK_TYPE": "lock", "ASSERT": "assert",
               "COMBINER": "combiner", "TYPECLASS": "typeclass", "ORDER": "order", "DISTRIB_ENUM": "distribute",
               "DTYPE_DISTRIBUTION": "darg", "KEYVAL": "keyval", "TOOL_VAR_VERBOSITY": "verbosity",
               "BIND_TYPE": "bind", "VARIABLE_SCOPE": "scope", "PVAR_CLASS": "pvar_class",
               "CALLBACK_SAFETY": "cb_safety", "SOURCE_ORDERING": "source_order", "ERROR_CLASS": "error",
               "ERROR_CODE": "error", "TAG": "tag", "RANK": "rank", "ACCESS_MODE": "amode", "UPDATE_MODE": "seek"}
# arrays of ranks that may hold a wildcard or sentinel (the others, graph edges and group members, are ranks)
RANK_ARRAYS = {"MPI_Group_translate_ranks"}
# kinds of callback parameters: the functions taking them are written by hand
CALLBACK_KINDS = {"FUNCTION", "POLYFUNCTION", "EVENT_CB_FUNCTION", "EVENT_FREE_CB_FUNCTION",
                  "EVENT_DROP_CB_FUNCTION"}
# written by hand in src/abi/ (callbacks, the attributes whose values are translated, MPI-5.0's own functions)
HAND = {"MPI_Abi_get_info", "MPI_Abi_get_version", "MPI_Abi_get_fortran_info", "MPI_Abi_set_fortran_info",
        "MPI_Abi_get_fortran_booleans", "MPI_Abi_set_fortran_booleans",
        "MPI_Comm_get_attr", "MPI_Win_get_attr", "MPI_Type_get_attr", "MPI_Attr_get", "MPI_Type_get_contents",
        "MPI_Op_create", "MPI_Comm_create_errhandler", "MPI_Win_create_errhandler", "MPI_Session_create_errhandler",
        "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval", "MPI_Keyval_create",
        "MPI_Grequest_start", "MPI_T_event_register_callback", "MPI_T_event_set_dropped_handler",
        "MPI_T_event_handle_free", "MPI_T_pvar_handle_alloc", "MPI_T_cvar_handle_alloc"} | {f"MPI_{t}_{d}" for t in ("Comm", "Errhandler", "File", "Group", "Info",
                                                               "Message", "Op", "Request", "Session", "Type",
                                                               "Win") for d in ("toint", "fromint")}
T_HANDLES = {"MPI_T_enum", "MPI_T_cvar_handle", "MPI_T_pvar_handle", "MPI_T_pvar_session",
             "MPI_T_event_registration", "MPI_T_event_instance"}


def direction(p):
    return p.direction.value.lower()


def is_array(p):
    return bool(p.array) or p._parseset.get("length") not in (None, "")


def abi_type(base):
    """The ABI's spelling of a C base type in this file (src/abi/abi.h's abi_Comm...)."""
    if base == "MPI_Status":
        return "abi_Status"
    if base.startswith("MPI_") and base[4:] in HANDLE_KINDS.values():
        return "abi_" + base[4:]
    return base


def abi_param(p, absent=False):
    if p.kind.name.lower() == "varargs":
        return "..."
    if absent and p.kind.name in CALLBACK_KINDS:  # vmpi's mpi.h has no type for MPI-IO's callbacks
        return f"void *{p.name}"
    const = "const " if p.constant else ""
    stars = "*" * (p.pointer_level or cdecl.POINTER_LEVEL.get(p.kind.name, 0))
    return f"{const}{abi_type(p.base_type)} {stars}{p.name}{p.array}"


def abi_params(expr, absent=False):
    return ", ".join(abi_param(p, absent) for p in expr.parameters) or "void"


class Unknown(Exception):
    pass


class Body:
    def __init__(self):
        self.pre, self.args, self.post, self.always, self.done = [], [], [], [], []


def length_of(name, params, p):
    """The C expression of an array parameter's length."""
    length = p._parseset.get("length")
    if isinstance(length, list):
        length = length[0]
    if length == "*":
        if p.kind.name == "STATUS":
            n = next(q.name for q in params if q.name in ("count", "incount"))
            return n
        if p.kind.name == "DATATYPE":  # an alltoallw's: one per peer (none to read for an MPI_IN_PLACE send)
            comm = next(q.name for q in params if q.kind.name == "COMMUNICATOR")
            nb = "1" if "neighbor" in name.lower() else "0"
            send = "1" if p.name.startswith("send") else "0"
            peers = f"abi_peers(abi_v({comm}), {nb}, {send})"
            return f"(sendbuf == ABI_IN_PLACE ? 0 : {peers})" if send == "1" and not nb == "1" else peers
        raise Unknown(f"{name}: the length of {p.name} ({p.kind.name})")
    for q in params:
        if q.name == length:
            return f"({length} ? *{length} : 0)" if q.pointer_level else length
    raise Unknown(f"{name}: the length {length!r} of {p.name}")


def param_body(name, params, p, b):
    k, d, n = p.kind.name, direction(p), p.name
    ptr = p.pointer_level or 0
    if k == "VARARGS":  # MPI_Pcontrol's: vmpi's takes and ignores them
        return
    if k in CALLBACK_KINDS:
        raise Unknown(f"{name}: a callback parameter ({n}): write the function in src/abi/ (HAND)")
    if k in HANDLE_KINDS:
        if is_array(p):
            ln = length_of(name, params, p)
            b.pre.append(f"int v_{n}_buf[VMPI_ABI_SMALL], *v_{n} = abi_v_arr((const void *const *){n}, {ln}, "
                         f"v_{n}_buf);")
            b.args.append(f"v_{n}")
            if d != "in":
                (b.always if d == "inout" else b.post).append(
                    f"if (v_{n}) abi_a_arr(v_{n}, {ln}, (void **){n});")
            b.done.append(f"abi_arr_done(v_{n}, v_{n}_buf);")
        elif ptr == 0:
            b.args.append(f"abi_v({n})")
        else:
            # written back whatever the result, from the program's own value when vmpi leaves it: a failed
            # MPI_Comm_dup must give MPI_COMM_NULL, as vmpi's does
            b.pre.append(f"MPI_{HANDLE_KINDS[k]} v_{n} = {n} ? abi_v(*{n}) : 0;")
            b.args.append(f"{n} ? &v_{n} : NULL")
            b.always.append(f"if ({n}) *{n} = abi_a(v_{n});")
        return
    if k == "STATUS" or p.base_type == "MPI_Status":
        if is_array(p):
            ln = length_of(name, params, p)
            b.pre.append(f"MPI_Status v_{n}_buf[VMPI_ABI_SMALL], *v_{n} = abi_st_arr({n}, {ln}, v_{n}_buf);")
            b.args.append(f"v_{n}")
            b.done.append(f"abi_st_arr_done(v_{n}, v_{n}_buf, {n}, {ln});")
            return
        # (an out status too starts as the program's: vmpi leaves MPI_ERROR as it was on a success)
        b.pre.append(f"MPI_Status v_{n};")
        b.pre.append(f"if ({n}) abi_st_v({n}, &v_{n}); else memset(&v_{n}, 0, sizeof v_{n});")
        b.args.append(f"{n} ? &v_{n} : NULL" if d != "out" else f"{n} ? &v_{n} : MPI_STATUS_IGNORE")
        if d != "in":
            b.always.append(f"if ({n}) abi_st_a(&v_{n}, {n});")
        return
    if p.base_type in T_HANDLES:
        b.args.append(f"({p.base_type}{' ' + '*' * ptr if ptr else ''}){n}")
        return
    group = VALUE_KINDS.get(k)
    if k == "ERROR_CODE" and name == "MPI_Abort":
        group = None  # the job's exit status, not an MPI error code
    if k == "RANK" and is_array(p) and name not in RANK_ARRAYS:
        group = None
    if k == "RANK_NNI" and not is_array(p):  # RMA's target ranks may be MPI_PROC_NULL (MPI-4.1 12.3)
        group = "rank"
    if group:
        if is_array(p):
            ln = length_of(name, params, p)
            b.pre.append(f"int v_{n}_buf[VMPI_ABI_SMALL], *v_{n} = {n} && {ln} > VMPI_ABI_SMALL ? "
                         f"malloc(sizeof(int) * (size_t){ln}) : v_{n}_buf;")
            if d != "out":
                b.pre.append(f"for (int i = 0; {n} && v_{n} && i < {ln}; i++) v_{n}[i] = abi_v_{group}({n}[i]);")
            b.args.append(f"{n} ? v_{n} : NULL")
            if d != "in":
                b.post.append(f"for (int i = 0; {n} && v_{n} && i < {ln}; i++) {n}[i] = abi_a_{group}(v_{n}[i]);")
            b.done.append(f"if (v_{n} != v_{n}_buf) free(v_{n});")
        elif ptr == 0:
            b.args.append(f"abi_v_{group}({n})")
        else:
            b.pre.append(f"int v_{n} = {n} ? abi_v_{group}(*{n}) : 0;" if d != "out" else f"int v_{n} = 0;")
            b.args.append(f"{n} ? (void *)&v_{n} : NULL")  # (an enumeration's pointer, for MPI_T's)
            (b.always if d == "inout" else b.post).append(f"if ({n}) *{n} = abi_a_{group}(v_{n});")
        return
    if "BUFFER" in k and p.base_type == "void" and ptr == 1 and not is_array(p):
        b.args.append(f"abi_v_buf({n})")
        if k == "C_BUFFER2" and d == "out":
            b.post.append(f"abi_a_bufaddr({n});")
        return
    if k == "WEIGHT":
        b.args.append(f"abi_v_weights({n})")
        return
    b.args.append(n)


def entry(out, name, profile_name, expr, have):
    ret = expr.return_type
    params = list(expr.parameters)
    sig = abi_params(expr, absent=name not in have)
    out.write(f"\nVMPI_ABI_API {ret} abi_{profile_name}({sig}) __asm__(\"{profile_name}\");\n")
    out.write(f"{ret} abi_{profile_name}({sig})\n{{\n")
    if name not in have:
        if ret != "int":
            raise Unknown(f"{name}: vmpi has no {name}, which returns {ret}")
        out.write(f"    return abi_absent(\"{name}\");\n}}\n")
    else:
        b = Body()
        for p in params:
            param_body(name, params, p, b)
        for s in b.pre:
            out.write(f"    {s}\n")
        call = f"vmpi_native_{profile_name}({', '.join(b.args)})"
        if ret == "int":
            out.write(f"    int rc = {call};\n")
            if b.post:
                out.write("    if (rc == MPI_SUCCESS) {\n")
                for s in b.post:
                    out.write(f"        {s}\n")
                out.write("    }\n")
            for s in b.always + b.done:
                out.write(f"    {s}\n")
            out.write("    return abi_ret(rc);\n}\n")
        else:
            if b.post or b.always or b.done:
                raise Unknown(f"{name}: results to translate from a function returning {ret}")
            out.write(f"    return {call};\n}}\n")
    out.write(f"VMPI_ABI_API extern __typeof__(abi_{profile_name}) abi_{name} __asm__(\"{name}\") "
              f"__attribute__((weak, alias(\"{profile_name}\")));\n")


def emit_tables(out):
    out.write("\nconst int vmpi_abi_v_handle[VMPI_ABI_HANDLE_LIMIT] = {\n")
    for handles in abi.HANDLES.values():
        for name, value in handles:
            out.write(f"#ifdef {name}\n    [0x{value:x}] = {name},\n#endif\n")
    out.write("};\n\n#define KI(h) [(unsigned)(h) >> 26][(unsigned)(h) & 0x3ffffff]\n"
              "const uint16_t vmpi_abi_a_handle[16][128] = {\n")
    for handles in abi.HANDLES.values():
        for name, value in handles:
            out.write(f"#ifdef {name}\n    KI({name}) = 0x{value:x},\n#endif\n")
    out.write("};\n#undef KI\n")
    for handles in abi.HANDLES.values():
        for name, _ in handles:
            out.write(f"#ifdef {name}\n_Static_assert(((unsigned){name} & 0x3ffffff) < 128 && "
                      f"((unsigned){name} >> 26) < 16, \"{name}: a predefined handle of vmpi's small indexes\");\n"
                      "#endif\n")
    # wildcards and enumerations: a value vmpi does not define becomes one it refuses (INT_MIN), but for
    # the groups whose other values are numbers (ranks, tags, error codes, keyvals, dargs)
    # error classes: a value the ABI reserves (up to its MPI_ERR_LASTCODE) that vmpi has no class of is
    # MPI_ERR_UNKNOWN (else it would be one of vmpi's other classes); codes above it are the same numbers
    numbers = {"rank", "tag", "keyval", "darg"}
    for group, pairs in abi.VALUES.items():
        other_v = ("x" if group in numbers else
                   f"x > 0 && x <= {abi.ERR_LASTCODE} ? MPI_ERR_UNKNOWN : x" if group == "error" else
                   "x == MPI_UNDEFINED ? x : INT_MIN")
        out.write(f"\nint abi_v_{group}(int x)\n{{\n    switch (x) {{\n")
        for name, value in pairs:
            out.write(f"#ifdef {name}\n    case {value}: return {name};\n#endif\n")
        for value in abi.REFUSED.get(group, []):
            out.write(f"    case {value}: return {abi.REFUSED_VALUE}; /* no {group} in the ABI, a wildcard in vmpi */\n")
        out.write(f"    default: return {other_v};\n    }}\n}}\n")
        out.write(f"int abi_a_{group}(int x)\n{{\n    switch (x) {{\n")
        for name, value in pairs + abi.VMPI_ONLY.get(group, []):
            out.write(f"#ifdef {name}\n    case {name}: return {value};\n#endif\n")
        out.write("    default: return x;\n    }\n}\n")
    for group, pairs in abi.BITS.items():
        all_bits = sum(v for _, v in pairs)
        out.write(f"\nint abi_v_{group}(int x)\n{{\n    int r = x & ~{all_bits};\n")
        for name, value in pairs:
            out.write(f"#ifdef {name}\n    if (x & {value}) r |= {name};\n#endif\n")
        out.write("    return r;\n}\n")
        out.write(f"int abi_a_{group}(int x)\n{{\n    int r = 0;\n")
        for name, value in pairs:
            out.write(f"#ifdef {name}\n    if (x & {name}) {{ r |= {value}; x &= ~{name}; }}\n#endif\n")
        out.write("    return r | x;\n}\n")
    for name, value in abi.SAME:
        out.write(f"_Static_assert({name} == {value}, \"{name} is the ABI's\");\n")
    for name, value in abi.SIZES:
        out.write(f"#ifdef {name}\n_Static_assert({name} <= {value}, \"vmpi's {name} fits the ABI's\");\n#endif\n")


def have_names(standard, entries):
    have = set()
    for e in entries:
        if e.generated:
            for expr, _, _ in standard.forms(e):
                have.add(expr.name)
    return have


def emit(standard, entries, out):
    have = have_names(standard, entries)
    out.write("/* SPDX-License-Identifier: BSD-3-Clause */\n"
              f"/* Generated by tools/mpistd/gen.py --what abi_c from pympistandard {standard.version} (MPI-5.0),\n"
              " * tools/mpistd/abi.py and the area lists src/binding/spec/: do not edit.  libmpi_abi's tables and entry points\n"
              " * (src/abi/abi.h). */\n#include \"abi/abi.h\"\n\n")
    for n in sorted(have):
        out.write(f"extern __typeof__(P{n}) vmpi_native_P{n};\n")
    emit_tables(out)
    errors = []
    for expr, profile in emit_abi_h.procedures(standard):
        base = expr.name[:-2] if expr.name.endswith("_c") else expr.name
        if expr.name in HAND or base in HAND:
            continue
        try:
            entry(out, expr.name, profile.name, expr, have)
        except Unknown as e:
            errors.append(str(e))
    if errors:
        raise SystemExit("mpistd: abi_c: " + "\nmpistd: abi_c: ".join(errors))
