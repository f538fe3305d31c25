# 2D indexing with workgroup ids: a 40x24 transpose in 16x16 workgroups.
# RUN: %python %utils/fe_e2e.py %s --bindir %bindir --case transpose | FileCheck %s
# CHECK: OK -O0
# CHECK: OK -O2

@kernel(workgroup_size=(16, 16, 1))
def transpose(src: f32[:], dst: f32[:], w: u32, h: u32):
    x = workgroup_id(0) * workgroup_size(0) + thread_id(0)
    y = global_id(1)
    if x < w and y < h:
        dst[x * h + y] = src[y * w + x]
