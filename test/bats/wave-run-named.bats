#!/usr/bin/env bats
# wave-run named launches (wave-run(1) "NAMED ARGUMENTS"): --arg NAME=VALUE
# against the kernel's .param descriptors, the buffer generators, scalars of
# each type, --out and --print, the automatic device-memory layout, every
# usage error, the reference flags beside them, the refusal of relocatable
# objects and fault messages with a source position. Expected values come
# from python3 (struct, an independent splitmix64) or hand computation.
bats_require_minimum_version 1.5.0

setup() {
  load common
  cd "$BATS_TEST_TMPDIR"
  # y[i] = a * x[i] + y[i] for i < n (one fma, one rounding).
  cat >saxpy.wave <<'WAVE'
.file 1 "saxpy.py"
.kernel saxpy
.registers 12
.param x, buffer, f32, read
.param y, buffer, f32, readwrite
.param a, scalar, f32
.param n, scalar, u32
.loc 1 3 5
    mov r4, sr_workgroup_id_x
    mov r5, sr_workgroup_size_x
    imul r4, r4, r5
    mov r5, sr_thread_id_x
    iadd r4, r4, r5
.loc 1 4 5
    ucmp_lt p1, r4, r3
    if p1
.loc 1 5 9
      mov_imm r5, 2
      shl r6, r4, r5
      iadd r7, r0, r6
      device_load_u32 r8, r7
      iadd r9, r1, r6
      device_load_u32 r10, r9
      fma r10, r2, r8, r10
      device_store_u32 r9, r10
    endif
    halt
.end
WAVE
  wave-as saxpy.wave -o saxpy.wbin
  # One buffer of every element type; the kernel does nothing, so --out and
  # --print show exactly what the generators wrote.
  cat >types.wave <<'WAVE'
.kernel types
.registers 8
.workgroup_size 1, 1, 1
.param a, buffer, i32, readwrite
.param b, buffer, u32, readwrite
.param c, buffer, f32, readwrite
.param d, buffer, f16, readwrite
.param e, buffer, bf16, readwrite
.param f, buffer, f64, readwrite
    halt
.end
WAVE
  wave-as types.wave -o types.wbin
  # Stores its three scalar registers to out[0..2].
  cat >scalars.wave <<'WAVE'
.kernel scalars
.registers 8
.workgroup_size 1, 1, 1
.param out, buffer, u32, write
.param i, scalar, i32
.param u, scalar, u32
.param f, scalar, f32
    mov_imm r4, 4
    device_store_u32 r0, r1
    iadd r5, r0, r4
    device_store_u32 r5, r2
    iadd r5, r5, r4
    device_store_u32 r5, r3
    halt
.end
WAVE
  wave-as scalars.wave -o scalars.wbin
  # Loads from the byte offset in its scalar parameter p (line 7, column 3).
  cat >fault.wave <<'WAVE'
.file 1 "fault.py"
.kernel bad
.registers 4
.workgroup_size 1, 1, 1
.param p, scalar, u32
.loc 1 2 1
    mov_imm r1, 0
.loc 1 7 3
    device_load_u32 r2, r0
    halt
.end
WAVE
  wave-as fault.wave -o fault.wbin
}

# f32file FILE EXPR: writes the f32 values [EXPR for i in range(...)] to FILE.
f32file() {
  python3 -c "import struct,sys; v=$2; open('$1','wb').write(struct.pack('<%df'%len(v),*v))"
}

# splitmix64 SEED COUNT: the generator's outputs, one per line (an
# independent implementation of Vigna's splitmix64.c).
SPLITMIX='
M=(1<<64)-1
def sm(s, n):
  out = []
  for _ in range(n):
    s = (s + 0x9e3779b97f4a7c15) & M
    z = s
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    out.append(z ^ (z >> 31))
  return out
'

@test "saxpy runs by name and --out holds a*x+y, computed independently" {
  f32file x.f32 '[float(i) for i in range(1024)]'
  f32file y.f32 '[0.5*i for i in range(1024)]'
  # Every value is exact in f32, so a*x+y needs no rounding; elements at
  # and past n stay as they were.
  f32file want.f32 '[2.5*i+0.5*i if i < 1000 else 0.5*i for i in range(1024)]'
  run -0 wave-run saxpy.wbin --kernel saxpy --grid 4 --workgroup 256 \
    --arg x=@x.f32 --arg y=@y.f32 --arg a=2.5 --arg n=1000 --out y=y_out.f32
  assert_output ""
  cmp y_out.f32 want.f32
}

@test "--print prints ranges in the element type, in the order given" {
  run -0 wave-run saxpy.wbin --grid 1 --workgroup 64 --arg x=iota:8 \
    --arg y=fill:8:1 --arg a=2.5 --arg n=6 --print 'y[0:3]' --print 'y[5]' \
    --print 'y[6:]' --print 'x[:2]'
  # y = 2.5*i + 1 for i < 6: 1, 3.5, 6; y[5] = 13.5; y[6], y[7] untouched.
  assert_output $'1.0\n3.5\n6.0\n13.5\n1.0\n1.0\n0.0\n1.0'
  run -0 wave-run saxpy.wbin --arg x=iota:5 --arg y=zeros:5 --arg a=0 \
    --arg n=0 --print x
  assert_output $'0.0\n1.0\n2.0\n3.0\n4.0'
  run -0 wave-run saxpy.wbin --arg x=iota:5 --arg y=zeros:5 --arg a=0 \
    --arg n=0 --print 'x[2:2]'
  assert_output ""
}

@test "buffers are laid out in parameter order at 256-byte boundaries from 256" {
  # x: 100 f32 at 256 (400 bytes, ends at 656), so y starts at 768.
  run -0 wave-run saxpy.wbin --arg x=iota:100 --arg y=fill:3:7 --arg a=0 \
    --arg n=0 --dump-f32 256:2 --dump-u32 0:1
  assert_output $'0\n0.0\n1.0'
  run -0 wave-run saxpy.wbin --arg x=iota:100 --arg y=fill:3:7 --arg a=0 \
    --arg n=0 --dump-f32 764:3
  assert_output $'0.0\n7.0\n7.0'
}

@test "device memory grows to fit named buffers unless --device-memory is given" {
  # 300000 f32 = 1200000 bytes, more than the default 1048576.
  run -0 wave-run saxpy.wbin --arg x=zeros:300000 --arg y=zeros:1 --arg a=0 \
    --arg n=0 --print 'x[299999]'
  assert_output "0.0"
  run -2 --separate-stderr wave-run saxpy.wbin --device-memory 300 \
    --arg x=iota:4 --arg y=zeros:4 --arg a=1 --arg n=1
  [ "$stderr" = "wave-run: error: --device-memory 300 is too small for the named buffers of kernel 'saxpy': they need 528 bytes (leave --device-memory out to size it to fit)" ]
  run -0 wave-run saxpy.wbin --device-memory 528 --arg x=iota:4 \
    --arg y=zeros:4 --arg a=1 --arg n=4 --print y
  assert_output $'0.0\n1.0\n2.0\n3.0'
}

@test "zeros:N writes N zero elements of the element size" {
  run -0 wave-run types.wbin --arg a=zeros:3 --arg b=zeros:1 --arg c=zeros:2 \
    --arg d=zeros:5 --arg e=zeros:1 --arg f=zeros:2 --out a=a --out d=d --out f=f
  [ "$(stat -c %s a)" -eq 12 ]
  [ "$(stat -c %s d)" -eq 10 ]
  [ "$(stat -c %s f)" -eq 16 ]
  [ "$(od -An -v -tx1 a d f | tr -d ' 0\n')" = "" ]
}

@test "iota:N writes 0..N-1 in each element type" {
  run -0 wave-run types.wbin --arg a=iota:3 --arg b=iota:3 --arg c=iota:3 \
    --arg d=iota:3 --arg e=iota:3 --arg f=iota:3 \
    --out a=a --out b=b --out c=c --out d=d --out e=e --out f=f
  python3 -c "
import struct
r = lambda n: open(n, 'rb').read()
assert r('a') == struct.pack('<3i', 0, 1, 2)
assert r('b') == struct.pack('<3I', 0, 1, 2)
assert r('c') == struct.pack('<3f', 0, 1, 2)
assert r('d') == struct.pack('<3e', 0, 1, 2)
assert r('e') == b''.join(struct.pack('<f', v)[2:] for v in (0, 1, 2))
assert r('f') == struct.pack('<3d', 0, 1, 2)
"
  run -0 wave-run types.wbin --arg a=iota:2 --arg b=iota:2 --arg c=iota:2 \
    --arg d=iota:2 --arg e=iota:2 --arg f=iota:2 --print 'a[1]' --print 'd[1]' \
    --print 'e[1]' --print 'f[1]'
  assert_output $'1\n1.0\n1.0\n1.0'
}

@test "random:N:SEED follows splitmix64 with the documented conversions" {
  run -0 wave-run types.wbin --arg a=random:4:7 --arg b=random:4:7 \
    --arg c=random:4:1 --arg d=random:4:2 --arg e=random:4:3 \
    --arg f=random:4:0x10 \
    --out a=a --out b=b --out c=c --out d=d --out e=e --out f=f
  python3 -c "$SPLITMIX
import struct
r = lambda n: open(n, 'rb').read()
low = [z & 0xffffffff for z in sm(7, 4)]
assert r('a') == struct.pack('<4I', *low)
assert r('b') == struct.pack('<4I', *low)
assert r('c') == struct.pack('<4f', *[(z >> 40) / 2**24 for z in sm(1, 4)])
assert r('d') == struct.pack('<4e', *[(z >> 53) / 2**11 for z in sm(2, 4)])
assert r('e') == b''.join(struct.pack('<f', (z >> 56) / 2**8)[2:] for z in sm(3, 4))
assert r('f') == struct.pack('<4d', *[(z >> 11) / 2**53 for z in sm(16, 4)])
"
  # The same seed gives the same values; another seed others.
  run -0 wave-run types.wbin --arg a=random:4:7 --arg b=zeros:1 \
    --arg c=random:4:1 --arg d=zeros:1 --arg e=zeros:1 --arg f=zeros:1 --out c=c2
  cmp c c2
}

@test "buffers of many MiB are generated in pieces, on any number of threads, element for element as one sequence" {
  # Pieces are 1 MiB: 262144 elements of 4 bytes, 131072 of 8. Elements on
  # both sides of piece boundaries, and the last, against python3's
  # splitmix64 (a plain loop: only up to the largest index checked).
  for j in 1 4; do
    run -0 wave-run types.wbin -j $j --arg a=iota:600000 --arg b=random:600000:5 \
      --arg c=random:600000:6 --arg d=zeros:1 --arg e=zeros:1 \
      --arg f=random:300000:8 --out a=a$j --out b=b$j --out c=c$j --out f=f$j
  done
  cmp a1 a4 && cmp b1 b4 && cmp c1 c4 && cmp f1 f4
  python3 -c "$SPLITMIX
import struct
r = lambda n: open(n, 'rb').read()
a, b, c, f = r('a4'), r('b4'), r('c4'), r('f4')
assert len(a) == len(b) == len(c) == 2400000 and len(f) == 2400000
zb, zc, zf = sm(5, 600000), sm(6, 600000), sm(8, 300000)
for i in (0, 262143, 262144, 524288, 599999):
  assert struct.unpack_from('<i', a, 4 * i)[0] == i
  assert struct.unpack_from('<I', b, 4 * i)[0] == zb[i] & 0xffffffff
  assert struct.unpack_from('<f', c, 4 * i)[0] == (zc[i] >> 40) / 2**24
for i in (0, 131071, 131072, 262144, 299999):
  assert struct.unpack_from('<d', f, 8 * i)[0] == (zf[i] >> 11) / 2**53
"
}

@test "fill:N:V writes V parsed in the element type" {
  run -0 wave-run types.wbin --arg a=fill:2:-5 --arg b=fill:2:0x10 \
    --arg c=fill:2:2.5 --arg d=fill:2:0.1 --arg e=fill:2:0.1 --arg f=fill:2:0.1 \
    --out a=a --out b=b --out c=c --out d=d --out e=e --out f=f
  python3 -c "
import struct
r = lambda n: open(n, 'rb').read()
assert r('a') == struct.pack('<2i', -5, -5)
assert r('b') == struct.pack('<2I', 16, 16)
assert r('c') == struct.pack('<2f', 2.5, 2.5)
assert r('d') == struct.pack('<2e', 0.1, 0.1)
# bf16 of 0.1 rounded to nearest: f32 0x3dcccccd -> 0x3dcd.
assert r('e') == bytes([0xcd, 0x3d] * 2)
assert r('f') == struct.pack('<2d', 0.1, 0.1)
"
}

@test "@FILE copies the file, whose size must be a multiple of the element size" {
  printf 'abcdefgh' >eight
  run -0 wave-run types.wbin --arg a=@eight --arg b=zeros:1 --arg c=zeros:1 \
    --arg d=@eight --arg e=zeros:1 --arg f=@eight --out a=a --out d=d --out f=f
  cmp a eight
  cmp d eight
  cmp f eight
  printf 'abcdef' >six
  run -2 --separate-stderr wave-run types.wbin --arg a=zeros:1 --arg b=zeros:1 \
    --arg c=zeros:1 --arg d=zeros:1 --arg e=zeros:1 --arg f=@six
  [ "$stderr" = "wave-run: error: kernel 'types': parameter 'f' (f64 buffer): file 'six' has 6 bytes, not a multiple of the 8-byte f64 element" ]
  run -2 --separate-stderr wave-run types.wbin --arg a=@nosuch --arg b=zeros:1 \
    --arg c=zeros:1 --arg d=zeros:1 --arg e=zeros:1 --arg f=zeros:1
  [[ "$stderr" == "wave-run: error: kernel 'types': parameter 'a' (i32 buffer): file 'nosuch': "* ]]
}

@test "scalars of each type reach their registers as 32-bit patterns" {
  run -0 wave-run scalars.wbin --arg out=zeros:3 --arg i=-5 --arg u=0x10 \
    --arg f=1e-3 --out out=o
  python3 -c "
import struct
assert open('o', 'rb').read() == struct.pack('<iIf', -5, 16, 1e-3)
"
  run -0 wave-run scalars.wbin --arg out=zeros:3 --arg i=-2147483648 \
    --arg u=4294967295 --arg f=-inf --print out
  assert_output $'2147483648\n4294967295\n4286578688'
  run -0 wave-run scalars.wbin --arg out=zeros:3 --arg i=2147483647 \
    --arg u=7 --arg f=inf --print 'out[0]' --print 'out[2]'
  assert_output $'2147483647\n2139095040'
  run -0 wave-run scalars.wbin --arg out=zeros:3 --arg i=0 --arg u=0 \
    --arg f=nan --print 'out[2]'
  assert_output "2143289344"
}

@test "a scalar out of range or of the wrong kind is a usage error naming it" {
  common=(--arg out=zeros:3 --arg i=0 --arg u=0)
  run -2 --separate-stderr wave-run scalars.wbin --arg out=zeros:3 --arg u=0 --arg f=0 --arg i=2147483648
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'i' (i32 scalar): value '2147483648' is out of range (-2147483648 to 2147483647)" ]
  run -2 --separate-stderr wave-run scalars.wbin --arg out=zeros:3 --arg i=0 --arg f=0 --arg u=4294967296
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'u' (u32 scalar): value '4294967296' is out of range (0 to 4294967295)" ]
  run -2 --separate-stderr wave-run scalars.wbin --arg out=zeros:3 --arg i=0 --arg f=0 --arg u=-1
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'u' (u32 scalar): invalid value '-1': expected an unsigned integer (decimal or 0x hex)" ]
  run -2 --separate-stderr wave-run scalars.wbin --arg out=zeros:3 --arg u=0 --arg f=0 --arg i=2.5
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'i' (i32 scalar): invalid value '2.5': expected an integer (decimal or 0x hex, optionally negative)" ]
  run -2 --separate-stderr wave-run scalars.wbin "${common[@]}" --arg f=1e39
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'f' (f32 scalar): value '1e39' is out of range (finite f32 values are at most 3.4028235e38 in magnitude)" ]
  run -2 --separate-stderr wave-run scalars.wbin "${common[@]}" --arg f=2.5x
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'f' (f32 scalar): invalid value '2.5x': expected a number such as 2.5, -1e-3, inf or nan" ]
  run -2 --separate-stderr wave-run scalars.wbin "${common[@]}" --arg f=zeros:4
  [ "$stderr" = "wave-run: error: kernel 'scalars': parameter 'f' (f32 scalar): invalid value 'zeros:4': a scalar takes a number, not a buffer" ]
}

@test "a buffer given a number or a bad generator is a usage error naming it" {
  run -2 --separate-stderr wave-run saxpy.wbin --arg x=2.5 --arg y=zeros:4 \
    --arg a=2.5 --arg n=1
  [ "$stderr" = "wave-run: error: kernel 'saxpy': parameter 'x' (f32 buffer): invalid value '2.5': expected @FILE, zeros:N, iota:N, random:N:SEED or fill:N:VALUE" ]
  run -2 --separate-stderr wave-run saxpy.wbin --arg x=random:4 --arg y=zeros:4 \
    --arg a=2.5 --arg n=1
  [ "$stderr" = "wave-run: error: kernel 'saxpy': parameter 'x' (f32 buffer): invalid value 'random:4': expected random:N:SEED" ]
  run -2 wave-run saxpy.wbin --arg x=zeros:four --arg y=zeros:4 --arg a=2.5 --arg n=1
  run -2 wave-run saxpy.wbin --arg x=fill:4:abc --arg y=zeros:4 --arg a=2.5 --arg n=1
}

@test "every parameter needs exactly one value, by a name the kernel has" {
  run -2 --separate-stderr wave-run saxpy.wbin --arg x=iota:4 --arg y=zeros:4
  assert_output ""
  [ "$stderr" = "wave-run: error: kernel 'saxpy': no value for parameters 'a', 'n'; every parameter needs --arg NAME=VALUE" ]
  run -2 --separate-stderr wave-run saxpy.wbin --arg x=iota:4 --arg y=zeros:4 \
    --arg a=1 --arg n=1 --arg z=3
  [ "$stderr" = "wave-run: error: kernel 'saxpy' has no parameter named 'z'; its parameters are: x, y, a, n" ]
  run -2 --separate-stderr wave-run saxpy.wbin --arg x=iota:4 --arg y=zeros:4 \
    --arg a=1 --arg n=1 --arg a=2
  [ "$stderr" = "wave-run: error: kernel 'saxpy': parameter 'a' is given more than once" ]
}

@test "--out and --print must name a buffer parameter and a range inside it" {
  args=(--arg x=iota:4 --arg y=zeros:4 --arg a=1 --arg n=1)
  run -2 --separate-stderr wave-run saxpy.wbin "${args[@]}" --print 'y[2:5]'
  [ "$stderr" = "wave-run: error: --print 'y[2:5]': buffer 'y' has 4 elements" ]
  run -2 --separate-stderr wave-run saxpy.wbin "${args[@]}" --print 'y[3:2]'
  [ "$stderr" = "wave-run: error: --print 'y[3:2]': buffer 'y' has 4 elements" ]
  run -2 --separate-stderr wave-run saxpy.wbin "${args[@]}" --print a
  [ "$stderr" = "wave-run: error: --print 'a': parameter 'a' of kernel 'saxpy' is a scalar, not a buffer" ]
  run -2 --separate-stderr wave-run saxpy.wbin "${args[@]}" --out q=q.bin
  [ "$stderr" = "wave-run: error: --out 'q': kernel 'saxpy' has no parameter named 'q'; its parameters are: x, y, a, n" ]
  [ ! -e q.bin ]
  run -2 wave-run saxpy.wbin "${args[@]}" --print 'y[1'
  run -2 wave-run saxpy.wbin "${args[@]}" --out y
  run -2 wave-run saxpy.wbin "${args[@]}" --out y=
}

@test "named arguments on a kernel without parameter descriptors are refused" {
  tiny_wave tiny.wave
  wave-as tiny.wave -o tiny.wbin
  run -2 --separate-stderr wave-run tiny.wbin --arg x=zeros:4
  [ "$stderr" = "wave-run: error: kernel 'tiny' has no parameter descriptors, so named arguments (--arg NAME=VALUE, --out, --print) cannot be used; give '.param' lines when assembling it, or use --arg OFFSET:FILE and --set-reg" ]
  run -2 wave-run tiny.wbin --print x
}

@test "the reference --arg OFFSET:FILE and --set-reg still work, also on kernels with descriptors" {
  f32file x.f32 '[1.0, 2.0, 3.0, 4.0]'
  f32file y.f32 '[10.0, 20.0, 30.0, 40.0]'
  run -0 wave-run saxpy.wbin --arg 0:x.f32 --arg 0x100:y.f32 --set-reg 0:0 \
    --set-reg 1:0x100 --set-reg 2:0x40000000 --set-reg 3:3 --dump-f32 0x100:4
  # a = 2.0 (0x40000000), n = 3.
  assert_output $'12.0\n24.0\n36.0\n40.0'
  # A file name containing '=' after the offset is still the reference form.
  cp x.f32 'a=b'
  run -0 wave-run saxpy.wbin --arg '0:a=b' --dump-f32 0:1
  assert_output "1.0"
}

@test "--set-reg after named arguments overrides a parameter's register" {
  run -0 wave-run saxpy.wbin --arg x=iota:4 --arg y=zeros:4 --arg a=1 \
    --arg n=4 --set-reg 3:2 --print y
  assert_output $'0.0\n1.0\n0.0\n0.0'
}

@test "a relocatable object is refused (exit 1)" {
  wave-as -c saxpy.wave -o saxpy.o
  run -1 --separate-stderr wave-run saxpy.o --arg x=iota:4
  [ "$stderr" = "wave-run: error: 'saxpy.o' is a relocatable object; link it with wave-link" ]
}

@test "a fault names the source position from the line table" {
  run -1 --separate-stderr wave-run fault.wbin --arg p=0xfffffff0
  [ "$stderr" = "wave-run: error: kernel 'bad': memory access out of bounds at pc 0x0008 (device_load_u32 r2, r0), workgroup (0,0,0) wave 0 lane 0: address 0xfffffff0, 4 bytes, device memory is 1048576 bytes (at fault.py:7:3)" ]
  # Without a line table the message has no position.
  grep -v -e '^\.file' -e '^\.loc' fault.wave >noloc.wave
  wave-as noloc.wave -o noloc.wbin
  run -1 --separate-stderr wave-run noloc.wbin --arg p=0xfffffff0
  [[ "$stderr" == *"device memory is 1048576 bytes" ]]
}

@test "a fault in the second kernel maps its pc through the kernel's code offset" {
  { grep -v -e '^\.file' -e '^\.loc' saxpy.wave; cat fault.wave; } >two.wave
  wave-as two.wave -o two.wbin
  run -1 --separate-stderr wave-run two.wbin --kernel bad --arg p=0xfffffff0
  [[ "$stderr" == *"at pc 0x0008 "*"(at fault.py:7:3)" ]]
}

@test "--out is written only after a clean run and leaves the old file on a fault" {
  # Stores to buf, then loads from the offset in p.
  cat >outfault.wave <<'WAVE'
.kernel outfault
.registers 4
.workgroup_size 1, 1, 1
.param buf, buffer, u32, readwrite
.param p, scalar, u32
    device_store_u32 r0, r1
    device_load_u32 r2, r1
    halt
.end
WAVE
  wave-as outfault.wave -o outfault.wbin
  echo old >out.bin
  run -1 wave-run outfault.wbin --arg buf=zeros:1 --arg p=0xfffffff0 --out buf=out.bin
  [ "$(cat out.bin)" = old ]
  run -2 --separate-stderr wave-run outfault.wbin --arg buf=zeros:1 --arg p=0 \
    --out buf=nosuchdir/o
  [[ "$stderr" == "wave-run: error: 'nosuchdir/o': "* ]]
  run -0 wave-run outfault.wbin --arg buf=zeros:1 --arg p=4 --out buf=out.bin
  python3 -c "
import struct
assert open('out.bin', 'rb').read() == struct.pack('<I', 4)
"
}

@test "--grid and --workgroup accept a single number X for X,1,1" {
  run -0 wave-run saxpy.wbin --grid 2 --workgroup 2 --arg x=iota:8 \
    --arg y=zeros:8 --arg a=1 --arg n=8 --print y
  # 2 workgroups of 2 threads cover elements 0..3 only.
  assert_output $'0.0\n1.0\n2.0\n3.0\n0.0\n0.0\n0.0\n0.0'
}
