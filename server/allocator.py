"""The C allocator set for a server that lives for weeks: few arenas, and big blocks mapped on their own.

glibc's defaults suit a short program, not a server whose threads (one per session's script run) each
allocate a pasted text's copies and a page's messages and then let them go. Two of them kept the serving
process well above its size at rest long after a greedy client had left, with the memory free inside the heap
and resident (scattered among blocks still used, so ``malloc_trim`` cannot give it back):

- *An arena per thread* (up to eight per core): each arena's free memory serves only the threads that
  land on it. ``M_ARENA_MAX`` = :data:`ARENAS` shares a few among all threads.
- *The mapping threshold rises* to the largest block freed (up to 32 MiB): after a 5 MB paste is freed,
  every block up to 5 MB comes from the heap and is scattered there. A fixed ``M_MMAP_THRESHOLD``
  (:data:`MAP_FROM`) keeps big blocks in mappings of their own, returned whole when freed.

The same can be set with ``MALLOC_ARENA_MAX`` and ``MALLOC_MMAP_THRESHOLD_`` in the environment; set here,
every way of starting the server gets it. Python's own small-object arenas are not glibc's and are unchanged.
"""

from __future__ import annotations

import ctypes

M_MMAP_THRESHOLD = -3  # from <malloc.h>
M_ARENA_MAX = -8
ARENAS = 2
MAP_FROM = 128 * 1024  # glibc's own starting threshold, kept fixed


def configure() -> bool:
    """Set the serving process's allocator (call once, early). False where there is no glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(M_ARENA_MAX, ARENAS)) and bool(libc.mallopt(M_MMAP_THRESHOLD, MAP_FROM))
    except (OSError, AttributeError):
        return False
