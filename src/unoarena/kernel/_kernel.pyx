# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: infer_types=True, cdivision=False
"""The batch kernel, compiled ahead of time: the parts mirror the Python modules of the same
names (see each ``.pxi``)."""

from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, uint32_t, uint64_t

ctypedef fused ints_a:
    int32_t[::1]
    int64_t[::1]

ctypedef fused ints_b:
    int32_t[::1]
    int64_t[::1]

ctypedef fused arr2:
    int32_t[:, ::1]
    int64_t[:, ::1]

ctypedef fused arr3:
    int32_t[:, :, ::1]
    int64_t[:, :, ::1]

ctypedef fused arr4:
    int32_t[:, :, :, ::1]
    int64_t[:, :, :, ::1]

ctypedef int32_t* i32p
ctypedef int64_t* i64p

ctypedef fused ints_p:
    i32p
    i64p

include "consts.pxi"
include "types.pxi"
include "convert.pxi"
include "mt.pxi"
include "core.pxi"
include "heuristic.pxi"
include "bots.pxi"
include "matches.pxi"
include "observe.pxi"
include "vector.pxi"
include "label.pxi"
include "wrappers.pxi"
