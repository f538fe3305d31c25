; Relocatable input (wave-as -c); named .asm so that roundtrip.py, which
; assembles every .wave without -c, leaves it alone.
.file 1 "main.py"
.extern lerp
.kernel main
    .registers 8
    .call_base 5
    .workgroup_size 4, 1, 1
    .param out, buffer, f32, write
    .param t, scalar, f32
    .loc 1 3 1
    mov_imm r5, 0x3f800000
    mov_imm r6, 0x40400000
    mov r7, r1
    call lerp
    .loc 1 4 1
    mov r2, sr_lane_id
    mov_imm r3, 2
    shl r2, r2, r3
    iadd r2, r0, r2
    device_store_u32 r2, r5
    halt
.end
