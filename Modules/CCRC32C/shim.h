// CRC-32C (Castagnoli) with the CPU's own instruction, for the snapshot
// journal's version-2 records (docs/snapshots.md). Header-only: there is no
// library to link. Swift cannot ask for a target feature per function, so the
// SSE4.2 loop lives here with `target("sse4.2")`, and callers check
// deck_crc32c_hardware() first; DeckSnapshots has a table-driven fallback.
#ifndef DECK_CCRC32C_SHIM_H
#define DECK_CCRC32C_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

/// 1 when this CPU has SSE4.2's crc32 instruction.
static inline int deck_crc32c_hardware(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}

/// Continues `crc` (0 to start; the value a previous call returned) over `count` bytes.
__attribute__((target("sse4.2")))
static inline uint32_t deck_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    uint64_t state = ~crc & 0xFFFFFFFFu;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        state = __builtin_ia32_crc32di(state, word);
        bytes += 8;
        count -= 8;
    }
    uint32_t small = (uint32_t)state;
    while (count > 0) {
        small = __builtin_ia32_crc32qi(small, *bytes);
        bytes += 1;
        count -= 1;
    }
    return ~small;
}
#else
static inline int deck_crc32c_hardware(void) { return 0; }

static inline uint32_t deck_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;  // never called: deck_crc32c_hardware() is 0 here
}
#endif

#endif
