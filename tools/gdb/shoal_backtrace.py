# SPDX-License-Identifier: Apache-2.0
# shoal_backtrace.py: `shoal-bt`, the async backtrace of a shoal coroutine, in gdb.
#
# Load it:  (gdb) source tools/gdb/shoal_backtrace.py     or  gdb -x tools/gdb/shoal_backtrace.py
# Use it:   (gdb) shoal-bt EXPR
#   EXPR is a coroutine frame address: a std::coroutine_handle (libstdc++ or libc++), a pointer,
#   or a number. Without EXPR, the coroutine of the selected stack frame, when the compiler kept
#   its frame variable (clang: __coro_frame, g++: frame_ptr); in optimised builds it usually
#   did not, so pass the handle.
#   Option -promise-offset N: where the promise sits in the frame of the coroutine EXPR names
#   (default: two pointers, right for every shoal promise aligned to 16 bytes or less).
#
# What it reads (the same walk as shoal::async_backtrace, docs/design/debugging.md): a coroutine
# frame starts with its resume function's address (clang and g++ alike), then the destroy
# function's, then the promise. Every shoal promise starts with detail::promise_base
# {continuation, env, parent}: the awaiting frame, its env, and the awaiting shoal promise (null
# when the awaiter is not a shoal coroutine). Field offsets come from the debug information when
# the program has it, else from that layout (checked by static_asserts in
# src/shoal/debug/async_backtrace.cpp).
import re

import gdb

MAX_FRAMES = 10000  # a longer chain is a corrupted one: stop rather than loop


def _pointer_size():
    return gdb.lookup_type("void").pointer().sizeof


def _read_pointer(address):
    data = gdb.selected_inferior().read_memory(address, _pointer_size())
    return int.from_bytes(bytes(data), "little")


def _promise_layout():
    """Byte offsets of promise_base's continuation and parent."""
    ptr = _pointer_size()
    layout = {"continuation": 0, "parent": 2 * ptr}
    try:
        promise_base = gdb.lookup_type("shoal::detail::promise_base")
        for field in promise_base.fields():
            if field.name in layout:
                layout[field.name] = field.bitpos // 8
    except gdb.error:
        pass  # no debug information: the default layout
    return layout


def _demangle(mangled):
    try:
        return gdb.execute("demangle " + mangled, to_string=True).strip()
    except gdb.error:
        return mangled


def _readable(name):
    """The coroutine's own name from its resume function's name."""
    # g++ names the resume function (the actor) after the coroutine, with the frame type as its
    # parameter: `f(_Z1fv.Frame *)`; the coroutine's mangled name is inside.
    gcc_actor = re.search(r"(_Z\w+)\.Frame ?\*\)", name)
    if gcc_actor:
        return _demangle(gcc_actor.group(1))
    return re.sub(r" \[clone \.(resume|actor)\]$", "", name)  # clang: `f() [clone .resume]`


def _function_name(pc):
    """The coroutine owning resume function `pc`: debug info first, then the ELF symbol."""
    try:
        block = gdb.block_for_pc(pc)
        if block is not None and block.function is not None:
            return _readable(block.function.print_name)
    except RuntimeError:
        pass
    text = gdb.execute("info symbol 0x%x" % pc, to_string=True).strip()
    if text.startswith("No symbol"):
        return None
    return _readable(text.split(" in section ", 1)[0])


def _describe(index, frame):
    resume = _read_pointer(frame)
    name = _function_name(resume) if resume != 0 else "<completed coroutine>"
    line = "#%d %s" % (index, name if name else "0x%x" % resume)
    return line + " [frame 0x%x, resume 0x%x]" % (frame, resume)


def _frame_address(value):
    """A coroutine frame address from a handle, a pointer or a number."""
    type_ = value.type.strip_typedefs()
    if type_.code == gdb.TYPE_CODE_STRUCT:
        for field in ("_M_fr_ptr", "__handle_"):  # libstdc++, libc++
            try:
                return int(value[field])
            except gdb.error:
                continue
        raise gdb.GdbError("shoal-bt: %s is not a std::coroutine_handle" % type_)
    return int(value.cast(gdb.lookup_type("unsigned long")))


def _selected_coroutine_frame():
    frame = gdb.selected_frame()
    while frame is not None:
        for name in ("__coro_frame", "frame_ptr"):
            try:
                return int(frame.read_var(name).cast(gdb.lookup_type("unsigned long")))
            except (ValueError, gdb.error):
                continue
        frame = frame.older()
    raise gdb.GdbError(
        "shoal-bt: no coroutine frame variable in the selected frame or its callers "
        "(optimised build?); pass the coroutine handle or frame address: shoal-bt EXPR")


class ShoalBacktrace(gdb.Command):
    """Print the async backtrace (the awaiting chain) of a shoal coroutine.

Usage: shoal-bt [-promise-offset N] [EXPR]
EXPR: a std::coroutine_handle, or the address of a coroutine frame. Without it, the coroutine
of the selected stack frame (needs its frame variable: unoptimised builds).
Prints the coroutine first, then whoever awaits it, down to the root of the chain."""

    def __init__(self):
        super().__init__("shoal-bt", gdb.COMMAND_STACK, gdb.COMPLETE_EXPRESSION)

    def invoke(self, argument, from_tty):
        offset = 2 * _pointer_size()
        match = re.match(r"\s*-promise-offset\s+(\d+)\s*(.*)$", argument)
        if match:
            offset, argument = int(match.group(1)), match.group(2)
        if argument.strip():
            frame = _frame_address(gdb.parse_and_eval(argument))
        else:
            frame = _selected_coroutine_frame()
        if frame == 0:
            raise gdb.GdbError("shoal-bt: null coroutine frame")
        layout = _promise_layout()
        promise = frame + offset
        gdb.write(_describe(0, frame) + "\n")
        for index in range(1, MAX_FRAMES):
            awaiter = _read_pointer(promise + layout["continuation"])
            if awaiter == 0:
                return  # the root
            parent = _read_pointer(promise + layout["parent"])
            gdb.write(_describe(index, awaiter) + "\n")
            if parent == 0:
                return  # awaited by a coroutine that is not shoal's: its promise is unknown
            promise = parent
        gdb.write("shoal-bt: stopped after %d frames\n" % MAX_FRAMES)


ShoalBacktrace()
