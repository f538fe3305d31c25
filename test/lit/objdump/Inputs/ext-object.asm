; Relocatable input (wave-as -c); named .asm so that roundtrip.py, which
; assembles every .wave without -c, leaves it alone.
; A relocatable object with a device function, an undefined function,
; parameter descriptors and a line table (for the extension-section tests).
; Layout by hand: lerp = fsub (8) + fma (8) + return (4) at 0x00, size 0x14;
; main at 0x14: mov_imm (8) at 0x14, call (8) at 0x1c, call (8) at 0x24,
; device_store_u32 (8) at 0x2c, halt (4) at 0x34; size 0x24.
.file 1 "k.py"
.extern stencil3
.global lerp
.func lerp
    .registers 6
    .loc 1 2 3
    fsub r3, r1, r0
    fma r0, r2, r3, r0
    return
.end
.kernel main
    .registers 8
    .call_base 6
    .param out, buffer, f32, write
    .param t, scalar, f32
    .loc 1 10 1
    mov_imm r6, 0
    call lerp
    call stencil3
    .loc 1 0 0
    device_store_u32 r0, r6
    halt
.end
