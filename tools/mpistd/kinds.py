# SPDX-License-Identifier: BSD-3-Clause
"""What the generated C entry points do with each parameter, chosen by the parameter's kind in the standard's
data (pympistandard: COMMUNICATOR, RANK, TAG, BUFFER, POLYXFER_NUM_ELEM_NNI...), its direction and its name:
the argument checks (src/binding/check.h's vmpi_chk_* helpers, which write the reason of a failure into the
check record `ck`), the resolved object a check yields (a handle becomes its vmpi_comm or vmpi_dtype), and
what the hand-written implementation function receives.

The kinds are coarse where C is not: RANK is a destination, a source or a root, told apart by the parameter's
name (dest, source, root); TAG is a send or a receive tag, by name (sendtag, recvtag) or, for a parameter
named `tag`, by the entry's `tag` key.  A parameter this table does not know, or knows too little of, stops
the generator with what to write in the spec (`checks.<param>`), rather than getting a guessed check.
"""
import cdecl


class Unknown(Exception):
    """No rule for a parameter: the message says which and what the spec can say instead."""


class Use:
    """One parameter of one entry point.  checks: [(guard, call)], each call a C expression giving MPI_SUCCESS or
    an error class (writing ck.why), made only when guard (a C expression, or None) holds; local: a declaration
    of the object the checks resolve the handle into, or None; arg: the implementation's argument; impl: its
    declaration in the implementation's prototype; out: for an MPI_Count result the int form narrows, the C
    statement that stores it into the user's int after the implementation succeeded, else None."""

    def __init__(self, checks=(), local=None, arg=None, impl=None, out=None):
        self.checks, self.local, self.arg, self.impl, self.out = list(checks), local, arg, impl, out


def direction(p):
    return p.direction.value.lower()  # in, out, inout


def c_decl(p):
    """`const void *buf`: the parameter as the standard's expression declares it (cdecl.param)."""
    return cdecl.param(p)


def _ptr(p, what):
    return (None, f'vmpi_chk_ptr(&ck, {p.name}, "{what}")')


RANK_ROLES = {"dest": "vmpi_chk_dest", "source": "vmpi_chk_source", "root": "vmpi_chk_root"}
TAG_ROLES = {"send": "vmpi_chk_send_tag", "recv": "vmpi_chk_recv_tag"}
TAG_NAMES = {"sendtag": "send", "recvtag": "recv"}
# the XFER_NUM_ELEM kinds: a count of elements of a datatype, after its buffer (or alone:
# MPI_Status_set_elements'); not negative, whether or not the kind's name says so (MPI_File_read's does not)
COUNT_KINDS = ("POLYXFER_NUM_ELEM_NNI", "XFER_NUM_ELEM_NNI", "POLYXFER_NUM_ELEM", "XFER_NUM_ELEM",
               "POLYDTYPE_NUM_ELEM_NNI", "POLYDTYPE_NUM_ELEM")
# a result through a pointer (MPI_Group_size's size, MPI_Test's flag): the pointer is checked, the implementation
# writes it; so are the handles a call makes (MPI_Info_create's: one it frees, MPI_Info_free's, inout, has no
# rule: the spec says how it is checked), a window's size and the pointer MPI_Win_allocate writes
OUT_SCALARS = ("LOGICAL", "COMM_SIZE", "RANK", "TAG", "ERROR_CODE", "GROUP_COMPARISON", "INDEX", "ARRAY_LENGTH",
               "INFO_VALUE_LENGTH", "KEY_INDEX", "ERROR_CLASS", "STRING_LENGTH", "COMM_COMPARISON",
               "ARRAY_LENGTH_NNI", "NUM_DIMS", "TOPOLOGY_TYPE", "WINDOW_SIZE", "C_BUFFER",
               "GROUP", "INFO", "ERRHANDLER", "COMMUNICATOR", "SESSION", "WINDOW", "DATATYPE", "DISPLACEMENT",
               "THREAD_LEVEL", "VERSION")
# input handles the check resolves into the object the implementation gets: the check.h function, the type
HANDLE_OBJECTS = {"COMMUNICATOR": ("vmpi_chk_comm", "vmpi_comm *"), "DATATYPE": ("vmpi_chk_dt", "const vmpi_dtype *"),
                  "GROUP": ("vmpi_chk_group", "vmpi_group *"), "WINDOW": ("vmpi_chk_win", "vmpi_win *"),
                  "SESSION": ("vmpi_chk_session", "vmpi_session *")}
# a datatype committed or not (spec: datatypes = "any"), which the implementation may change (its name)
ANY_DATATYPE = ("vmpi_chk_dt_any", "vmpi_dtype *")
# sizes in bytes (MPI_Aint) of memory, a window's or MPI_Alloc_mem's: not negative (MPI_ERR_SIZE)
SIZE_KINDS = ("WINDOW_SIZE", "ALLOC_MEM_NUM_BYTES", "WIN_ATTACH_SIZE")
# counts and sizes a call gives back (MPI_Get_count's, MPI_Pack_size's)
COUNT_RESULTS = ("POLYNUM_BYTES", "NUM_BYTES", "POLYXFER_NUM_ELEM", "XFER_NUM_ELEM", "POLYDTYPE_NUM_ELEM",
                 "POLYRMA_DISPLACEMENT", "POLYDISPLACEMENT_AINT_COUNT", "POLYNUM_BYTES_NNI", "POLYDTYPE_PACK_SIZE")
# a position in a packed buffer, which a call reads and advances (MPI_Pack's): the large form's MPI_Count
POSITIONS = ("POLYDISPLACEMENT_COUNT", "POLYLOCATION")
# the type of such a result in the large-count form, where it is not MPI_Count
LARGE_TYPES = {"POLYRMA_DISPLACEMENT": "MPI_Aint"}
# arrays of plain values, as long as another parameter says (MPI_Group_incl's ranks, n of them; a [n][3]
# array of ranges is as long as its first dimension): checked not NULL when that length is positive
VALUE_ARRAYS = ("RANK", "INDEX", "DIMENSION", "COORDINATE", "LOGICAL")


def length_of(p):
    """The parameter that gives the length of array parameter p, or None (`*`: the standard names none)."""
    length = p._parseset.get("length")
    if isinstance(length, list):
        length = length[0]
    return None if length in (None, "", "*") else length


def buffer_triple(params, i):
    """For a BUFFER at params[i] followed by its count and datatype: (count, datatype) parameters, else None."""
    if (i + 2 < len(params) and params[i + 1].kind.name in COUNT_KINDS and
            params[i + 2].kind.name == "DATATYPE"):
        return params[i + 1], params[i + 2]
    return None


# count and displacement arrays the implementation gets as a vmpi_ivec (mpi/core/ivec.h), by their C type (a
# DISPLACEMENT array is MPI_Aint in both forms: as it is)
# (and the datatype constructors' array sizes and displacements; their block lengths are counts)
IVEC_KINDS = COUNT_KINDS + ("POLYDISPLACEMENT", "POLYDTYPE_NUM_ELEM_PI", "POLYDISPLACEMENT_COUNT",
                            "POLYDISPLACEMENT_AINT_COUNT")
IVECS = {"int": "vmpi_iv_int", "MPI_Count": "vmpi_iv_count", "MPI_Aint": "vmpi_iv_aint"}
# what the entry point still checks where the implementation checks the arguments (spec: arguments =
# "implementation"): the call's communicator, the info and the request pointer
ENTRY_CHECKED = ("COMMUNICATOR", "INFO", "REQUEST")


def passed(p):
    """A parameter the implementation checks itself: as the program passed it, but counts as MPI_Count and count
    and displacement arrays as a vmpi_ivec (the int and _c forms share the implementation)."""
    k, name = p.kind.name, p.name
    if (bool(p.array) or p._parseset.get("length") not in (None, "")) and k in IVEC_KINDS:
        if p.base_type not in IVECS:
            raise Unknown(f"array {name} of {p.base_type}: no vmpi_ivec form (kinds.IVECS)")
        return Use(arg=f"{IVECS[p.base_type]}({name})", impl=f"vmpi_ivec {name}")
    if k in COUNT_KINDS and not p.array:
        return Use(arg=name, impl=f"MPI_Count {name}")
    return Use(arg=name, impl=c_decl(p))


def use(entry, params, i, large):
    """How the entry point of `entry` handles params[i] (the parameters of its `large` form or of its int form).
    Raises Unknown when there is no rule."""
    p = params[i]
    k, d, name = p.kind.name, direction(p), p.name
    array = bool(p.array) or p._parseset.get("length") not in (None, "")
    comm = next((q for q in params if q.kind.name == "COMMUNICATOR" and direction(q) == "in"), None)
    passthrough = Use(arg=name, impl=c_decl(p))
    if entry.arguments == "implementation" and k not in ENTRY_CHECKED:
        return passed(p)

    if k in HANDLE_OBJECTS and d == "in" and not array:
        check, obj = HANDLE_OBJECTS[k] if not (k == "DATATYPE" and entry.datatypes == "any") else ANY_DATATYPE
        return Use([(None, f"{check}(&ck, {name}, &{name}_obj)")], f"{obj}{name}_obj;", f"{name}_obj",
                   f"{obj}{name}")
    if k in COUNT_KINDS and d == "in" and not array:
        return Use([(None, f"vmpi_chk_count(&ck, {name})")], arg=name, impl=f"MPI_Count {name}")
    if k == "BUFFER" and not array:
        t = buffer_triple(params, i)
        if t is None:  # a buffer described otherwise (MPI_Buffer_attach's bytes): the spec says how to check it
            return passthrough
        count, dtype = t
        return Use([(None, f"vmpi_chk_buf(&ck, {name}, {count.name}, {dtype.name}_obj)")], arg=name, impl=c_decl(p))
    if k == "RANK" and d == "in" and not array:
        if name not in RANK_ROLES:
            raise Unknown(f"RANK parameter {name} is none of {', '.join(RANK_ROLES)}: give its check "
                          f"(checks.{name})")
        if comm is None:
            raise Unknown(f"RANK parameter {name} without a communicator: give its check (checks.{name})")
        return Use([(None, f"{RANK_ROLES[name]}(&ck, {name}, {comm.name}_obj)")], arg=name, impl=f"int {name}")
    if k == "TAG" and d == "in" and not array:
        role = TAG_NAMES.get(name, entry.tag if name == "tag" else None)
        if role is None:
            raise Unknown(f"TAG parameter {name}: say whether it is a send or a receive tag (tag = \"send\" or "
                          f"\"recv\") or give its check (checks.{name})")
        return Use([(None, f"{TAG_ROLES[role]}(&ck, {name})")], arg=name, impl=f"int {name}")
    if k == "STATUS" and d == "out":
        return passthrough  # MPI_STATUS_IGNORE (MPI_STATUSES_IGNORE) is a pointer too
    if k == "STATUS" and d in ("in", "inout") and p.pointer_level == 1 and not array:  # one to read or set
        return Use([(None, f"vmpi_chk_status(&ck, {name})")], arg=name, impl=c_decl(p))
    if k == "REQUEST" and not array and p.pointer_level == 1:
        if d == "out":
            return Use([_ptr(p, "request pointer")], arg=name, impl=c_decl(p))
        # an existing request to act on (MPI_Start, MPI_Cancel): not MPI_REQUEST_NULL
        return Use([(None, f"vmpi_chk_req_at(&ck, {name}, false)")], arg=name, impl=c_decl(p))
    if k == "REQUEST" and array and length_of(p):  # each request MPI_REQUEST_NULL or valid
        return Use([(None, f"vmpi_chk_reqs(&ck, {length_of(p)}, {name})")], arg=name, impl=c_decl(p))
    if k == "MESSAGE" and p.pointer_level == 1 and not array:
        if d == "out":
            return Use([_ptr(p, "message")], arg=name, impl=c_decl(p))
        # a message to receive (MPI_Mrecv): MPI_MESSAGE_NO_PROC or one MPI_Mprobe gave
        return Use([(None, f"vmpi_chk_msg(&ck, {name})")], arg=name, impl=c_decl(p))
    if k in OUT_SCALARS and d == "out" and p.pointer_level == 1 and not array:
        return Use([_ptr(p, name)], arg=name, impl=c_decl(p))
    if k == "STRING" and d == "out" and p.pointer_level == 1:  # a buffer the call fills (as long as it says)
        return Use([_ptr(p, name)], arg=name, impl=c_decl(p))
    if k == "INFO_VALUE_LENGTH" and d == "in" and not array:
        return Use([(None, f'vmpi_chk_nonneg_cls(&ck, {name}, "{name}", MPI_ERR_ARG)')], arg=name, impl=c_decl(p))
    if k == "RANK_NNI" and d == "in" and not array:  # a target rank: of the window's group, or MPI_PROC_NULL
        win = next((q for q in params if q.kind.name == "WINDOW" and direction(q) == "in"), None)
        if win is None:
            raise Unknown(f"RANK_NNI parameter {name} without a window: give its check (checks.{name})")
        return Use([(None, f"vmpi_chk_win_rank(&ck, {name}, {win.name}_obj)")], arg=name, impl=c_decl(p))
    if k == "RMA_DISPLACEMENT_NNI" and d == "in" and not array:  # the implementation checks it against the window
        return passthrough
    if k == "OPERATION" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_op_valid(&ck, {name})")], arg=name, impl=c_decl(p))
    if k == "ASSERT" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_assert(&ck, {name})")], arg=name, impl=c_decl(p))
    if k == "LOCK_TYPE" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_lock_type(&ck, {name})")], arg=name, impl=c_decl(p))
    if k in SIZE_KINDS and d == "in" and not array:
        return Use([(None, f'vmpi_chk_size(&ck, {name})')], arg=name, impl=c_decl(p))
    if k == "POLYRMA_DISPLACEMENT" and d == "in" and not array:  # a window's displacement unit
        return Use([(None, f'vmpi_chk_disp_unit(&ck, {name})')], arg=name, impl=f"MPI_Aint {name}")
    if k == "KEY_INDEX" and d == "in" and not array:  # into the object: the implementation checks it
        return passthrough
    if k in ("ERROR_CODE", "ERROR_CLASS") and d == "in" and not array:
        return passthrough  # any int: the implementation knows which codes and classes there are
    if k == "COLOR" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_color(&ck, {name})")], arg=name, impl=c_decl(p))
    if k == "KEY" and d == "in" and not array:  # any int orders the ranks
        return passthrough
    if k == "NUM_DIMS" and d == "in" and not array:
        return Use([(None, f'vmpi_chk_nonneg_cls(&ck, {name}, "{name}", MPI_ERR_DIMS)')], arg=name, impl=c_decl(p))
    if k == "DIMENSION" and d == "in" and not array:  # a displacement along a dimension (MPI_Cart_shift's)
        return passthrough
    if k == "ERRHANDLER" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_errh(&ck, {name})")], arg=name, impl=c_decl(p))
    if k in VALUE_ARRAYS and array and length_of(p):
        return Use([(f"{length_of(p)} > 0", f'vmpi_chk_ptr(&ck, {name}, "{name}")')], arg=name, impl=c_decl(p))
    if k == "ARRAY_LENGTH_NNI" and d == "in" and not array:
        return Use([(None, f"vmpi_chk_count(&ck, {name})")], arg=name, impl=f"int {name}")
    if k in POSITIONS and d == "inout" and p.pointer_level == 1 and not array:
        if large or p.base_type == "MPI_Count":
            return Use([_ptr(p, name)], arg=name, impl=f"MPI_Count *{name}")
        # the int form's (int or MPI_Aint): read into an MPI_Count, stored back after a successful call (the
        # implementation keeps it within the buffer's size, which is of the same type)
        return Use([(None, f'vmpi_chk_load(&ck, {name}, &{name}_large, "{name}")')], f"MPI_Count {name}_large;",
                   f"&{name}_large", f"MPI_Count *{name}", f"*{name} = ({p.base_type}){name}_large;")
    if k in ("POLYNUM_BYTES_NNI", "POLYDTYPE_PACK_SIZE") and d == "in" and not array:
        return Use([(None, f'vmpi_chk_nonneg(&ck, {name}, "{name}")')], arg=name, impl=f"MPI_Count {name}")
    if k in COUNT_RESULTS and d == "out" and p.pointer_level == 1 and not array:
        ltype = LARGE_TYPES.get(k, "MPI_Count")
        impl = f"{ltype} *{name}"
        if large or ltype in c_decl(p):  # (MPI_Get_elements_x's is MPI_Count in its int form)
            return Use([_ptr(p, name)], arg=name, impl=impl)
        if p.base_type == "MPI_Aint":  # (MPI_Type_get_extent's lb: MPI_Aint, MPI_Count in the large form)
            return Use([_ptr(p, name)], f"{ltype} {name}_large;", f"&{name}_large", impl,
                       f"*{name} = (MPI_Aint){name}_large;")
        if p.base_type != "int":
            raise Unknown(f"result {name} is neither {ltype}, MPI_Aint nor int: give its check (checks.{name})")
        # the int form: the implementation's large result, then stored into the user's int (MPI_UNDEFINED
        # when it does not fit, as MPI_Get_count does)
        return Use([_ptr(p, name)], f"{ltype} {name}_large;", f"&{name}_large", impl,
                   f"*{name} = vmpi_count_int({name}_large);")
    if k == "C_BUFFER2" and d == "out" and p.pointer_level == 1 and not array:
        return Use([_ptr(p, "buffer address")], arg=name, impl=c_decl(p))
    if k in ("ARGUMENT_COUNT", "ARGUMENT_LIST") and d == "inout":  # MPI_Init's argc and argv: NULL or the
        return passthrough  # program's, which vmpi does not read (its ranks got theirs before main)
    if k == "THREAD_LEVEL" and d == "in" and not array:  # any level: the implementation provides what it can
        return passthrough
    if k == "LOGICAL" and d == "in" and not array:  # any int is true or false
        return passthrough
    if k == "INFO" and d == "in" and not array:  # MPI_INFO_NULL or an info object
        return Use([(f"{name} != MPI_INFO_NULL", f"vmpi_chk_info(&ck, {name})")], arg=name, impl=c_decl(p))
    if k == "PARTITION" and d == "in":
        if array:  # partition numbers: the implementation checks them against its request
            length = p._parseset.get("length")
            return Use([(f"{length} > 0", f'vmpi_chk_ptr(&ck, {name}, "{name}")')], arg=name, impl=c_decl(p))
        if name == "partitions":  # a number of partitions (MPI_Psend_init)
            return Use([(None, f'vmpi_chk_nonneg_cls(&ck, {name}, "{name}", MPI_ERR_ARG)')], arg=name,
                       impl=c_decl(p))
        return passthrough  # a partition of a request: the implementation checks its range
    if k == "ARRAY_LENGTH" and d == "in" and not array:
        return Use([(None, f'vmpi_chk_nonneg_cls(&ck, {name}, "{name}", MPI_ERR_ARG)')], arg=name, impl=c_decl(p))
    if k == "REQUEST" and d == "in" and not array and p.pointer_level == 0:  # an existing request, by value
        return Use([(None, f"vmpi_chk_req(&ck, {name}, false)")], arg=name, impl=c_decl(p))
    raise Unknown(f"no rule for parameter {name} (kind {k}, {d}{', array' if array else ''}) in tools/mpistd/kinds.py:"
                  f" add one, or give its check in the spec (checks.{name})")
