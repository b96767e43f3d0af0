# SPDX-License-Identifier: BSD-3-Clause
"""--what centry --area A: binding/A_entry.h, the bodies of area A's entry points (emit_c.emit_bodies)."""
import emit_c


def emit(standard, entries, out, area):
    emit_c.emit_bodies(standard, entries, out, area)
