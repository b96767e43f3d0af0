# SPDX-License-Identifier: BSD-3-Clause
"""The MPI-5.0 standard ABI's values (MPI-5.0 Appendix A, as the MPI Forum's mpi-abi-stubs header spells them,
MPI_ABI_VERSION 1.0): what pympistandard's data does not carry.  emit_abi_h.py prints mpi_abi.h from them and
emit_abi_c.py the tables that translate each value to vmpi's own (mpi.h's macro of the same name) and back.

Each group is one translation: a handle type's predefined handles, or the values of one kind of integer
argument.  A name vmpi's mpi.h does not define (MPI_LOGICAL1, MPI_COMM_TYPE_RESOURCE_GUIDED...) is in the
header and translates to a value vmpi refuses with the argument's error class.
"""

ABI_VERSION = (1, 0)
MPI_VERSION = (5, 0)

# handle type -> [(name, ABI value)]; the first of each is its null handle
HANDLES = {
    "Op": [("MPI_OP_NULL", 0x20), ("MPI_SUM", 0x21), ("MPI_MIN", 0x22), ("MPI_MAX", 0x23), ("MPI_PROD", 0x24),
           ("MPI_BAND", 0x28), ("MPI_BOR", 0x29), ("MPI_BXOR", 0x2a), ("MPI_LAND", 0x30), ("MPI_LOR", 0x31),
           ("MPI_LXOR", 0x32), ("MPI_MINLOC", 0x38), ("MPI_MAXLOC", 0x39), ("MPI_REPLACE", 0x3c),
           ("MPI_NO_OP", 0x3d)],
    "Comm": [("MPI_COMM_NULL", 0x100), ("MPI_COMM_WORLD", 0x101), ("MPI_COMM_SELF", 0x102)],
    "Group": [("MPI_GROUP_NULL", 0x108), ("MPI_GROUP_EMPTY", 0x109)],
    "Win": [("MPI_WIN_NULL", 0x110)],
    "File": [("MPI_FILE_NULL", 0x118)],
    "Session": [("MPI_SESSION_NULL", 0x120)],
    "Message": [("MPI_MESSAGE_NULL", 0x128), ("MPI_MESSAGE_NO_PROC", 0x129)],
    "Info": [("MPI_INFO_NULL", 0x130), ("MPI_INFO_ENV", 0x131)],
    "Errhandler": [("MPI_ERRHANDLER_NULL", 0x140), ("MPI_ERRORS_ARE_FATAL", 0x141), ("MPI_ERRORS_RETURN", 0x142),
                   ("MPI_ERRORS_ABORT", 0x143)],
    "Request": [("MPI_REQUEST_NULL", 0x180)],
    "Datatype": [
        ("MPI_DATATYPE_NULL", 0x200), ("MPI_AINT", 0x201), ("MPI_COUNT", 0x202), ("MPI_OFFSET", 0x203),
        ("MPI_PACKED", 0x207), ("MPI_SHORT", 0x208), ("MPI_INT", 0x209), ("MPI_LONG", 0x20a),
        ("MPI_LONG_LONG", 0x20b), ("MPI_UNSIGNED_SHORT", 0x20c), ("MPI_UNSIGNED", 0x20d),
        ("MPI_UNSIGNED_LONG", 0x20e), ("MPI_UNSIGNED_LONG_LONG", 0x20f), ("MPI_FLOAT", 0x210),
        ("MPI_C_FLOAT_COMPLEX", 0x212), ("MPI_CXX_FLOAT_COMPLEX", 0x213), ("MPI_DOUBLE", 0x214),
        ("MPI_C_DOUBLE_COMPLEX", 0x216), ("MPI_CXX_DOUBLE_COMPLEX", 0x217), ("MPI_LOGICAL", 0x218),
        ("MPI_INTEGER", 0x219), ("MPI_REAL", 0x21a), ("MPI_COMPLEX", 0x21b), ("MPI_DOUBLE_PRECISION", 0x21c),
        ("MPI_DOUBLE_COMPLEX", 0x21d), ("MPI_LONG_DOUBLE", 0x220), ("MPI_C_LONG_DOUBLE_COMPLEX", 0x224),
        ("MPI_CXX_LONG_DOUBLE_COMPLEX", 0x225), ("MPI_FLOAT_INT", 0x228), ("MPI_DOUBLE_INT", 0x229),
        ("MPI_LONG_INT", 0x22a), ("MPI_2INT", 0x22b), ("MPI_SHORT_INT", 0x22c), ("MPI_LONG_DOUBLE_INT", 0x22d),
        ("MPI_2REAL", 0x230), ("MPI_2DOUBLE_PRECISION", 0x231), ("MPI_2INTEGER", 0x232), ("MPI_C_BOOL", 0x238),
        ("MPI_CXX_BOOL", 0x239), ("MPI_WCHAR", 0x23c), ("MPI_INT8_T", 0x240), ("MPI_UINT8_T", 0x241),
        ("MPI_CHAR", 0x243), ("MPI_SIGNED_CHAR", 0x244), ("MPI_UNSIGNED_CHAR", 0x245), ("MPI_BYTE", 0x247),
        ("MPI_INT16_T", 0x248), ("MPI_UINT16_T", 0x249), ("MPI_INT32_T", 0x250), ("MPI_UINT32_T", 0x251),
        ("MPI_INT64_T", 0x258), ("MPI_UINT64_T", 0x259), ("MPI_LOGICAL1", 0x2c0), ("MPI_INTEGER1", 0x2c1),
        ("MPI_CHARACTER", 0x2c3), ("MPI_LOGICAL2", 0x2c8), ("MPI_INTEGER2", 0x2c9), ("MPI_REAL2", 0x2ca),
        ("MPI_LOGICAL4", 0x2d0), ("MPI_INTEGER4", 0x2d1), ("MPI_REAL4", 0x2d2), ("MPI_COMPLEX4", 0x2d3),
        ("MPI_LOGICAL8", 0x2d8), ("MPI_INTEGER8", 0x2d9), ("MPI_REAL8", 0x2da), ("MPI_COMPLEX8", 0x2db),
        ("MPI_LOGICAL16", 0x2e0), ("MPI_INTEGER16", 0x2e1), ("MPI_REAL16", 0x2e2), ("MPI_COMPLEX16", 0x2e3),
        ("MPI_COMPLEX32", 0x2eb)],
}
HANDLE_ALIASES = [("MPI_LONG_LONG_INT", "MPI_LONG_LONG"), ("MPI_C_COMPLEX", "MPI_C_FLOAT_COMPLEX")]
# every predefined handle is below this (the ABI's reserved range)
HANDLE_LIMIT = 0x400

# The kinds of integer values that differ between the ABI and vmpi: name -> [(name, ABI value)].  The entry
# points translate an argument by its parameter's kind (emit_abi_c.KIND_VALUES); the header prints them all.
VALUES = {
    "error": [
        ("MPI_SUCCESS", 0), ("MPI_ERR_BUFFER", 1), ("MPI_ERR_COUNT", 2), ("MPI_ERR_TYPE", 3), ("MPI_ERR_TAG", 4),
        ("MPI_ERR_COMM", 5), ("MPI_ERR_RANK", 6), ("MPI_ERR_REQUEST", 7), ("MPI_ERR_ROOT", 8),
        ("MPI_ERR_GROUP", 9), ("MPI_ERR_OP", 10), ("MPI_ERR_TOPOLOGY", 11), ("MPI_ERR_DIMS", 12),
        ("MPI_ERR_ARG", 13), ("MPI_ERR_UNKNOWN", 14), ("MPI_ERR_TRUNCATE", 15), ("MPI_ERR_OTHER", 16),
        ("MPI_ERR_INTERN", 17), ("MPI_ERR_PENDING", 18), ("MPI_ERR_IN_STATUS", 19), ("MPI_ERR_ACCESS", 20),
        ("MPI_ERR_AMODE", 21), ("MPI_ERR_ASSERT", 22), ("MPI_ERR_BAD_FILE", 23), ("MPI_ERR_BASE", 24),
        ("MPI_ERR_CONVERSION", 25), ("MPI_ERR_DISP", 26), ("MPI_ERR_DUP_DATAREP", 27),
        ("MPI_ERR_FILE_EXISTS", 28), ("MPI_ERR_FILE_IN_USE", 29), ("MPI_ERR_FILE", 30),
        ("MPI_ERR_INFO_KEY", 31), ("MPI_ERR_INFO_NOKEY", 32), ("MPI_ERR_INFO_VALUE", 33), ("MPI_ERR_INFO", 34),
        ("MPI_ERR_IO", 35), ("MPI_ERR_KEYVAL", 36), ("MPI_ERR_LOCKTYPE", 37), ("MPI_ERR_NAME", 38),
        ("MPI_ERR_NO_MEM", 39), ("MPI_ERR_NOT_SAME", 40), ("MPI_ERR_NO_SPACE", 41), ("MPI_ERR_NO_SUCH_FILE", 42),
        ("MPI_ERR_PORT", 43), ("MPI_ERR_QUOTA", 44), ("MPI_ERR_READ_ONLY", 45), ("MPI_ERR_RMA_ATTACH", 46),
        ("MPI_ERR_RMA_CONFLICT", 47), ("MPI_ERR_RMA_RANGE", 48), ("MPI_ERR_RMA_SHARED", 49),
        ("MPI_ERR_RMA_SYNC", 50), ("MPI_ERR_SERVICE", 51), ("MPI_ERR_SIZE", 52), ("MPI_ERR_SPAWN", 53),
        ("MPI_ERR_UNSUPPORTED_DATAREP", 54), ("MPI_ERR_UNSUPPORTED_OPERATION", 55), ("MPI_ERR_WIN", 56),
        ("MPI_ERR_RMA_FLAVOR", 57), ("MPI_ERR_PROC_ABORTED", 58), ("MPI_ERR_VALUE_TOO_LARGE", 59),
        ("MPI_ERR_SESSION", 60), ("MPI_ERR_ERRHANDLER", 61),
        ("MPI_T_ERR_CANNOT_INIT", 1001), ("MPI_T_ERR_NOT_ACCESSIBLE", 1002), ("MPI_T_ERR_NOT_INITIALIZED", 1003),
        ("MPI_T_ERR_NOT_SUPPORTED", 1004), ("MPI_T_ERR_MEMORY", 1005), ("MPI_T_ERR_INVALID", 1006),
        ("MPI_T_ERR_INVALID_INDEX", 1007), ("MPI_T_ERR_INVALID_ITEM", 1008), ("MPI_T_ERR_INVALID_SESSION", 1009),
        ("MPI_T_ERR_INVALID_HANDLE", 1010), ("MPI_T_ERR_INVALID_NAME", 1011), ("MPI_T_ERR_OUT_OF_HANDLES", 1012),
        ("MPI_T_ERR_OUT_OF_SESSIONS", 1013), ("MPI_T_ERR_CVAR_SET_NOT_NOW", 1014),
        ("MPI_T_ERR_CVAR_SET_NEVER", 1015), ("MPI_T_ERR_PVAR_NO_WRITE", 1016),
        ("MPI_T_ERR_PVAR_NO_STARTSTOP", 1017), ("MPI_T_ERR_PVAR_NO_ATOMIC", 1018)],
    # ranks: the wildcards and sentinels a rank argument or result may be (MPI_UNDEFINED is the same value)
    "rank": [("MPI_ANY_SOURCE", -1), ("MPI_PROC_NULL", -3), ("MPI_ROOT", -4)],
    "tag": [("MPI_ANY_TAG", -2)],
    "thread": [("MPI_THREAD_SINGLE", 0), ("MPI_THREAD_FUNNELED", 1024), ("MPI_THREAD_SERIALIZED", 2048),
               ("MPI_THREAD_MULTIPLE", 4096)],
    "order": [("MPI_ORDER_C", 12), ("MPI_ORDER_FORTRAN", 15)],
    "distribute": [("MPI_DISTRIBUTE_NONE", 16), ("MPI_DISTRIBUTE_BLOCK", 17), ("MPI_DISTRIBUTE_CYCLIC", 18)],
    "darg": [("MPI_DISTRIBUTE_DFLT_DARG", 19)],
    "combiner": [
        ("MPI_COMBINER_NAMED", 101), ("MPI_COMBINER_DUP", 102), ("MPI_COMBINER_CONTIGUOUS", 103),
        ("MPI_COMBINER_VECTOR", 104), ("MPI_COMBINER_HVECTOR", 105), ("MPI_COMBINER_INDEXED", 106),
        ("MPI_COMBINER_HINDEXED", 107), ("MPI_COMBINER_INDEXED_BLOCK", 108), ("MPI_COMBINER_HINDEXED_BLOCK", 109),
        ("MPI_COMBINER_STRUCT", 110), ("MPI_COMBINER_SUBARRAY", 111), ("MPI_COMBINER_DARRAY", 112),
        ("MPI_COMBINER_F90_INTEGER", 113), ("MPI_COMBINER_F90_REAL", 114), ("MPI_COMBINER_F90_COMPLEX", 115),
        ("MPI_COMBINER_RESIZED", 116), ("MPI_COMBINER_VALUE_INDEX", 117)],
    "typeclass": [("MPIX_TYPECLASS_LOGICAL", 191), ("MPI_TYPECLASS_INTEGER", 192), ("MPI_TYPECLASS_REAL", 193),
                  ("MPI_TYPECLASS_COMPLEX", 194)],
    "compare": [("MPI_IDENT", 201), ("MPI_CONGRUENT", 202), ("MPI_SIMILAR", 203), ("MPI_UNEQUAL", 204)],
    "topology": [("MPI_CART", 211), ("MPI_GRAPH", 212), ("MPI_DIST_GRAPH", 213)],
    "split": [("MPI_COMM_TYPE_SHARED", 221), ("MPI_COMM_TYPE_HW_UNGUIDED", 222), ("MPI_COMM_TYPE_HW_GUIDED", 223),
              ("MPI_COMM_TYPE_RESOURCE_GUIDED", 224)],
    "lock": [("MPI_LOCK_EXCLUSIVE", 301), ("MPI_LOCK_SHARED", 302)],
    "flavor": [("MPI_WIN_FLAVOR_CREATE", 311), ("MPI_WIN_FLAVOR_ALLOCATE", 312), ("MPI_WIN_FLAVOR_DYNAMIC", 313),
               ("MPI_WIN_FLAVOR_SHARED", 314)],
    "model": [("MPI_WIN_UNIFIED", 321), ("MPI_WIN_SEPARATE", 322)],
    "seek": [("MPI_SEEK_SET", 401), ("MPI_SEEK_CUR", 402), ("MPI_SEEK_END", 403)],
    "keyval": [("MPI_KEYVAL_INVALID", 0), ("MPI_TAG_UB", 501), ("MPI_IO", 502), ("MPI_HOST", 503),
               ("MPI_WTIME_IS_GLOBAL", 504), ("MPI_UNIVERSE_SIZE", 505), ("MPI_APPNUM", 506),
               ("MPI_LASTUSEDCODE", 507), ("MPI_WIN_BASE", 601), ("MPI_WIN_DISP_UNIT", 602), ("MPI_WIN_SIZE", 603),
               ("MPI_WIN_CREATE_FLAVOR", 604), ("MPI_WIN_MODEL", 605)],
    "verbosity": [("MPI_T_VERBOSITY_USER_BASIC", 0x09), ("MPI_T_VERBOSITY_USER_DETAIL", 0x0a),
                  ("MPI_T_VERBOSITY_USER_ALL", 0x0c), ("MPI_T_VERBOSITY_TUNER_BASIC", 0x11),
                  ("MPI_T_VERBOSITY_TUNER_DETAIL", 0x12), ("MPI_T_VERBOSITY_TUNER_ALL", 0x14),
                  ("MPI_T_VERBOSITY_MPIDEV_BASIC", 0x21), ("MPI_T_VERBOSITY_MPIDEV_DETAIL", 0x22),
                  ("MPI_T_VERBOSITY_MPIDEV_ALL", 0x24)],
    "bind": [("MPI_T_BIND_NO_OBJECT", 1), ("MPI_T_BIND_MPI_COMM", 2), ("MPI_T_BIND_MPI_DATATYPE", 3),
             ("MPI_T_BIND_MPI_ERRHANDLER", 4), ("MPI_T_BIND_MPI_FILE", 5), ("MPI_T_BIND_MPI_GROUP", 6),
             ("MPI_T_BIND_MPI_OP", 7), ("MPI_T_BIND_MPI_REQUEST", 8), ("MPI_T_BIND_MPI_WIN", 9),
             ("MPI_T_BIND_MPI_MESSAGE", 10), ("MPI_T_BIND_MPI_INFO", 11), ("MPI_T_BIND_MPI_SESSION", 12)],
    "scope": [("MPI_T_SCOPE_CONSTANT", 1), ("MPI_T_SCOPE_READONLY", 2), ("MPI_T_SCOPE_LOCAL", 3),
              ("MPI_T_SCOPE_GROUP", 4), ("MPI_T_SCOPE_GROUP_EQ", 5), ("MPI_T_SCOPE_ALL", 6),
              ("MPI_T_SCOPE_ALL_EQ", 7)],
    "pvar_class": [("MPI_T_PVAR_CLASS_STATE", 1), ("MPI_T_PVAR_CLASS_LEVEL", 2), ("MPI_T_PVAR_CLASS_SIZE", 3),
                   ("MPI_T_PVAR_CLASS_PERCENTAGE", 4), ("MPI_T_PVAR_CLASS_HIGHWATERMARK", 5),
                   ("MPI_T_PVAR_CLASS_LOWWATERMARK", 6), ("MPI_T_PVAR_CLASS_COUNTER", 7),
                   ("MPI_T_PVAR_CLASS_AGGREGATE", 8), ("MPI_T_PVAR_CLASS_TIMER", 9),
                   ("MPI_T_PVAR_CLASS_GENERIC", 10)],
    "cb_safety": [("MPI_T_CB_REQUIRE_NONE", 0x00), ("MPI_T_CB_REQUIRE_MPI_RESTRICTED", 0x03),
                  ("MPI_T_CB_REQUIRE_THREAD_SAFE", 0x0F), ("MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE", 0x3F)],
    "source_order": [("MPI_T_SOURCE_ORDERED", 1), ("MPI_T_SOURCE_UNORDERED", 2)],
}
# vmpi's values the ABI has no name of, and the ABI's value they translate to (one way): the combiners of
# MPI-1's removed constructors (MPI_Type_hvector...), as MPI-2 reads them
VMPI_ONLY = {
    "combiner": [("MPI_COMBINER_HVECTOR_INTEGER", 105), ("MPI_COMBINER_HINDEXED_INTEGER", 107),
                 ("MPI_COMBINER_STRUCT_INTEGER", 110)],
}
# ABI values that are no valid argument there but would be a wildcard as vmpi's number (-2 is no rank in the
# ABI but vmpi's MPI_ANY_SOURCE; -1 no tag but vmpi's MPI_ANY_TAG): they translate to a value vmpi refuses
REFUSED = {"rank": [-2], "tag": [-1]}
REFUSED_VALUE = -32767
# bit sets: each ABI bit translates to vmpi's bit of the same name (window assertions; file modes: no MPI-IO)
BITS = {
    "assert": [("MPI_MODE_NOCHECK", 1024), ("MPI_MODE_NOPRECEDE", 2048), ("MPI_MODE_NOPUT", 4096),
               ("MPI_MODE_NOSTORE", 8192), ("MPI_MODE_NOSUCCEED", 16384)],
    "amode": [("MPI_MODE_APPEND", 1), ("MPI_MODE_CREATE", 2), ("MPI_MODE_DELETE_ON_CLOSE", 4), ("MPI_MODE_EXCL", 8),
              ("MPI_MODE_RDONLY", 16), ("MPI_MODE_RDWR", 32), ("MPI_MODE_SEQUENTIAL", 64),
              ("MPI_MODE_UNIQUE_OPEN", 128), ("MPI_MODE_WRONLY", 256)],
}
# the same in both (checked at build time by the generated C: a _Static_assert per name vmpi defines)
SAME = [("MPI_UNDEFINED", -32766)]
# values the header prints that no argument translates (sizes the program allocates: the ABI's are at least
# vmpi's, checked at build time)
SIZES = [("MPI_MAX_DATAREP_STRING", 128), ("MPI_MAX_ERROR_STRING", 512), ("MPI_MAX_INFO_KEY", 256),
         ("MPI_MAX_INFO_VAL", 1024), ("MPI_MAX_LIBRARY_VERSION_STRING", 8192), ("MPI_MAX_OBJECT_NAME", 128),
         ("MPI_MAX_PORT_NAME", 1024), ("MPI_MAX_PROCESSOR_NAME", 256), ("MPI_MAX_STRINGTAG_LEN", 1024),
         ("MPI_MAX_PSET_NAME_LEN", 1024), ("MPI_BSEND_OVERHEAD", 512)]
# pointer constants: (name, C type, value); the entry points translate the ones vmpi spells differently
POINTERS = [("MPI_BOTTOM", "void *", 0), ("MPI_IN_PLACE", "void *", 1), ("MPI_BUFFER_AUTOMATIC", "void *", 2),
            ("MPI_ARGV_NULL", "char **", 0), ("MPI_ARGVS_NULL", "char ***", 0), ("MPI_ERRCODES_IGNORE", "int *", 0),
            ("MPI_STATUS_IGNORE", "MPI_Status *", 0), ("MPI_STATUSES_IGNORE", "MPI_Status *", 0),
            ("MPI_UNWEIGHTED", "int *", 10), ("MPI_WEIGHTS_EMPTY", "int *", 11),
            ("MPI_T_ENUM_NULL", "MPI_T_enum", 0), ("MPI_T_CVAR_HANDLE_NULL", "MPI_T_cvar_handle", 0),
            ("MPI_T_PVAR_SESSION_NULL", "MPI_T_pvar_session", 0), ("MPI_T_PVAR_HANDLE_NULL", "MPI_T_pvar_handle", 0),
            ("MPI_T_PVAR_ALL_HANDLES", "MPI_T_pvar_handle", 1)]
# the predefined attribute callbacks: (name, callback type, value, vmpi's macro)
CALLBACK_CONSTANTS = [
    ("MPI_NULL_COPY_FN", "MPI_Copy_function", 0), ("MPI_DUP_FN", "MPI_Copy_function", 1),
    ("MPI_NULL_DELETE_FN", "MPI_Delete_function", 0),
    ("MPI_COMM_NULL_COPY_FN", "MPI_Comm_copy_attr_function", 0), ("MPI_COMM_DUP_FN", "MPI_Comm_copy_attr_function", 1),
    ("MPI_COMM_NULL_DELETE_FN", "MPI_Comm_delete_attr_function", 0),
    ("MPI_TYPE_NULL_COPY_FN", "MPI_Type_copy_attr_function", 0), ("MPI_TYPE_DUP_FN", "MPI_Type_copy_attr_function", 1),
    ("MPI_TYPE_NULL_DELETE_FN", "MPI_Type_delete_attr_function", 0),
    ("MPI_WIN_NULL_COPY_FN", "MPI_Win_copy_attr_function", 0), ("MPI_WIN_DUP_FN", "MPI_Win_copy_attr_function", 1),
    ("MPI_WIN_NULL_DELETE_FN", "MPI_Win_delete_attr_function", 0),
    ("MPI_CONVERSION_FN_NULL", "MPI_Datarep_conversion_function", 0),
    ("MPI_CONVERSION_FN_NULL_C", "MPI_Datarep_conversion_function_c", 0)]
# MPI_F_STATUS_SIZE and the Fortran status indices (an ABI status is 8 ints: source, tag, error, 5 private)
FORTRAN_STATUS = [("MPI_F_STATUS_SIZE", 8), ("MPI_F_SOURCE", 0), ("MPI_F_TAG", 1), ("MPI_F_ERROR", 2)]
ERR_LASTCODE = 0x3fff
DISPLACEMENT_CURRENT = -1  # an MPI_Offset
