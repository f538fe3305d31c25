#!/usr/bin/env python3
"""Writes the kernel of test/lit/amdgcn/vgpr-spill.test to standard output.

250 values (r5..r254) are loaded from memory, changed in the lanes of a
divergent if (which also divides with fdiv and ddiv, shuffles r254 and
broadcasts r252 from an inactive lane), rotated by a loop with a divergent
break, and all stored: more than 256 VGPRs live at once with the
translator's temporaries. The shuffle's and the broadcast's sources are
stored last, so they live longest and spill first.
"""
V = list(range(5, 255))          # 250 values
L = []
e = L.append
e(".kernel k")
e(".registers 255")
e(".param buf, buffer, u32, readwrite")
e("    mov     r1, sr_thread_id_x")
e("    mov_imm r3, 2")
e("    shl     r2, r1, r3")
e("    iadd    r2, r0, r2")
e("    mov_imm r3, 256")
for i, r in enumerate(V):
    if i:
        e("    iadd    r2, r2, r3")
    e(f"    device_load_u32 r{r}, r2")
e("; lanes with tid & 3 != 0")
e("    mov_imm r3, 3")
e("    and     r2, r1, r3")
e("    mov_imm r3, 0")
e("    icmp_ne p1, r2, r3")
e("    if p1")
for r in V:
    e(f"        xor     r{r}, r{r}, r1")
e("        fdiv    r5, r5, r12")
e("        ddiv    r6, r8, r10")
e("        mov_imm r3, 1")
e("        wave_shuffle_xor r254, r254, r3")
e("        mov_imm r3, 8")
e("        wave_broadcast r253, r252, r3")
e("    endif")
e("; (tid & 7) + 1 iterations")
e("    mov_imm r2, 0")
e("    mov_imm r3, 7")
e("    and     r3, r1, r3")
e("    loop")
for a, b in zip(V, V[1:] + [1]):
    e(f"        iadd    r{a}, r{a}, r{b}")
e("        mov_imm r4, 1")
e("        iadd    r2, r2, r4")
e("        icmp_gt p2, r2, r3")
e("        break   p2")
e("    endloop")
e("    mov_imm r3, 2")
e("    shl     r2, r1, r3")
e("    iadd    r2, r0, r2")
e(f"    mov_imm r3, {256 * len(V)}")
e("    iadd    r2, r2, r3")
e("    mov_imm r3, 256")
# the broadcast's and the shuffle's sources are stored last: they live
# longest and are the first values spilled
for i, r in enumerate([r for r in V if r not in (252, 254)] + [254, 252]):
    if i:
        e("    iadd    r2, r2, r3")
    e(f"    device_store_u32 r2, r{r}")
e("    halt")
e(".end")
print("\n".join(L))
