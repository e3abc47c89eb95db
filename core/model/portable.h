#pragma once
// Lets the few element-wise helpers that both backends must share (half-precision rounding,
// the reductions) compile as host code here and as host+device code under nvcc, so the CUDA
// backend runs literally the same arithmetic as the CPU reference. core/ still includes no
// CUDA header: nvcc defines __CUDACC__ itself.
#if defined(__CUDACC__)
#define RINGVIZ_HD __host__ __device__
#else
#define RINGVIZ_HD
#endif
