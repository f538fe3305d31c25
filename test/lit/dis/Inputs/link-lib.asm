; Relocatable input (wave-as -c); named .asm so that roundtrip.py, which
; assembles every .wave without -c, leaves it alone.
.file 1 "lib.py"
.global lerp
.func lerp
    .registers 4
    .loc 1 7 5
    fsub r3, r1, r0
    fma r0, r2, r3, r0
    return
.end
