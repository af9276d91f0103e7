/*
 * Vectorised float32 math for the WebAssembly SIMD kernels (128-bit, 4 lanes), shared by
 * gemm.c (activation epilogues) and elementwise.c. Cephes-style range reduction + minimax
 * polynomials (as in sse_mathfun), about 1-2 ulp; wasm SIMD has no FMA, so the reductions use
 * split constants. Special values follow IEEE/JS: exp(+-inf) = inf/0, log(0) = -inf,
 * log(x < 0) = NaN, NaN propagates.
 */
#ifndef DECISIO_VMATH_H
#define DECISIO_VMATH_H
#include <wasm_simd128.h>

typedef float f32;

#define VF(c) wasm_f32x4_splat((f32)(c))
#define VI(c) wasm_i32x4_splat((int)(c))

/* e^x. Inputs are clamped to [-104, 88.73]; 2^n is applied in two halves so that results
 * down to the denormal range and up to overflow (inf) are right. */
static inline v128_t v_exp(v128_t x) {
  v128_t xc = wasm_f32x4_min(wasm_f32x4_max(x, VF(-104.0f)), VF(88.73f));
  v128_t fx = wasm_f32x4_nearest(wasm_f32x4_mul(xc, VF(1.44269504088896341f)));
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(fx, VF(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(fx, VF(-2.12194440e-4f)));
  v128_t z = wasm_f32x4_mul(r, r);
  v128_t y = VF(1.9875691500E-4f);
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), VF(1.3981999507E-3f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), VF(8.3334519073E-3f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), VF(4.1665795894E-2f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), VF(1.6666665459E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), VF(5.0000001201E-1f));
  y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(y, z), r), VF(1.0f));
  v128_t n = wasm_i32x4_trunc_sat_f32x4(fx);
  v128_t n1 = wasm_i32x4_shr(n, 1);
  v128_t n2 = wasm_i32x4_sub(n, n1);
  v128_t p1 = wasm_i32x4_shl(wasm_i32x4_add(n1, VI(127)), 23);
  v128_t p2 = wasm_i32x4_shl(wasm_i32x4_add(n2, VI(127)), 23);
  return wasm_f32x4_mul(wasm_f32x4_mul(y, p1), p2);
}

/* Natural logarithm (denormal inputs are rescaled first). */
static inline v128_t v_log(v128_t x0) {
  v128_t den = wasm_v128_and(wasm_f32x4_lt(x0, VF(1.17549435e-38f)), wasm_f32x4_gt(x0, VF(0.0f)));
  v128_t x = wasm_v128_bitselect(wasm_f32x4_mul(x0, VF(8388608.0f)), x0, den);
  v128_t eadj = wasm_v128_and(den, VF(-23.0f));
  v128_t bits = x;
  v128_t e = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(bits, 23), VI(126)));
  e = wasm_f32x4_add(e, eadj);
  v128_t m = wasm_v128_or(wasm_v128_and(bits, VI(0x807fffff)), VI(0x3f000000)); /* [0.5, 1) */
  v128_t small = wasm_f32x4_lt(m, VF(0.707106781186547524f));
  v128_t tmp = wasm_v128_and(m, small);
  m = wasm_f32x4_sub(m, VF(1.0f));
  e = wasm_f32x4_sub(e, wasm_v128_and(VF(1.0f), small));
  m = wasm_f32x4_add(m, tmp);
  v128_t z = wasm_f32x4_mul(m, m);
  v128_t y = VF(7.0376836292E-2f);
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(-1.1514610310E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(1.1676998740E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(-1.2420140846E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(1.4249322787E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(-1.6668057665E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(2.0000714765E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(-2.4999993993E-1f));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, m), VF(3.3333331174E-1f));
  y = wasm_f32x4_mul(wasm_f32x4_mul(y, m), z);
  y = wasm_f32x4_add(y, wasm_f32x4_mul(e, VF(-2.12194440e-4f)));
  y = wasm_f32x4_sub(y, wasm_f32x4_mul(z, VF(0.5f)));
  v128_t r = wasm_f32x4_add(wasm_f32x4_add(m, y), wasm_f32x4_mul(e, VF(0.693359375f)));
  /* Specials: x == 0 -> -inf, x < 0 or NaN -> NaN, x == inf -> inf. */
  r = wasm_v128_bitselect(VF(-__builtin_inff()), r, wasm_f32x4_eq(x0, VF(0.0f)));
  r = wasm_v128_bitselect(x0, r, wasm_f32x4_eq(x0, VF(__builtin_inff())));
  v128_t bad = wasm_v128_or(wasm_f32x4_lt(x0, VF(0.0f)), wasm_f32x4_ne(x0, x0));
  return wasm_v128_bitselect(VF(__builtin_nanf("")), r, bad);
}

/* log(1 + u) for u >= 0, accurate for tiny u (w = 1 + u; log(w) * u / (w - 1)). */
static inline v128_t v_log1p_pos(v128_t u) {
  v128_t w = wasm_f32x4_add(u, VF(1.0f));
  v128_t d = wasm_f32x4_sub(w, VF(1.0f));
  v128_t exact = wasm_f32x4_eq(d, VF(0.0f));
  v128_t r = wasm_f32x4_div(wasm_f32x4_mul(v_log(w), u), wasm_v128_bitselect(VF(1.0f), d, exact));
  r = wasm_v128_bitselect(u, r, exact);
  /* u = inf: log(inf) * inf / inf would be NaN */
  return wasm_v128_bitselect(u, r, wasm_f32x4_eq(u, VF(__builtin_inff())));
}

/* tanh: odd polynomial for |x| < 0.625, else 1 - 2 / (e^(2|x|) + 1) with the sign restored. */
static inline v128_t v_tanh(v128_t x) {
  v128_t ax = wasm_f32x4_abs(x);
  v128_t z = wasm_f32x4_mul(x, x);
  v128_t p = VF(-5.70498872745E-3f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), VF(2.06390887954E-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), VF(-5.37397155531E-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), VF(1.33314422036E-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), VF(-3.33332819422E-1f));
  v128_t small = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, z), x), x);
  v128_t e = v_exp(wasm_f32x4_mul(VF(2.0f), wasm_f32x4_min(ax, VF(20.0f))));
  v128_t big = wasm_f32x4_sub(VF(1.0f), wasm_f32x4_div(VF(2.0f), wasm_f32x4_add(e, VF(1.0f))));
  big = wasm_v128_or(big, wasm_v128_and(x, VI(0x80000000))); /* copy sign */
  v128_t r = wasm_v128_bitselect(small, big, wasm_f32x4_lt(ax, VF(0.625f)));
  return wasm_v128_bitselect(x, r, wasm_f32x4_ne(x, x));
}

/* 1 / (1 + e^-x) */
static inline v128_t v_sigmoid(v128_t x) {
  return wasm_f32x4_div(VF(1.0f), wasm_f32x4_add(VF(1.0f), v_exp(wasm_f32x4_neg(x))));
}

/* log(1 + e^x) = max(x, 0) + log1p(e^-|x|) */
static inline v128_t v_softplus(v128_t x) {
  v128_t r = wasm_f32x4_add(wasm_f32x4_max(x, VF(0.0f)), v_log1p_pos(v_exp(wasm_f32x4_neg(wasm_f32x4_abs(x)))));
  return wasm_v128_bitselect(x, r, wasm_f32x4_ne(x, x));
}

/* Scalar tails go through the same vector code (one lane used) so that results do not depend
 * on an element's position. */
static inline f32 s_apply(v128_t (*f)(v128_t), f32 v) {
  return wasm_f32x4_extract_lane(f(wasm_f32x4_splat(v)), 0);
}

#endif
