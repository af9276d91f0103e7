/*
 * Elementwise WebAssembly SIMD kernels of the CPU backend (compiled into the same module as
 * gemm.c by scripts/build-wasm.sh, so they work on the operands the matmul keeps resident).
 * The TypeScript kernels in src/backends/cpu/js-kernels.ts are the reference; op codes are
 * mirrored in src/backends/cpu/wasm-elementwise.ts. No stack use, no static data.
 *
 * Tails (n not a multiple of 4) run through the same vector code on a partial vector, so a
 * value never depends on its position.
 */
#include "vmath.h"

static inline v128_t load_n(const f32 *p, int r) {
  v128_t v = wasm_f32x4_splat(0.f);
  v = wasm_f32x4_replace_lane(v, 0, p[0]);
  if (r > 1) v = wasm_f32x4_replace_lane(v, 1, p[1]);
  if (r > 2) v = wasm_f32x4_replace_lane(v, 2, p[2]);
  if (r > 3) v = wasm_f32x4_replace_lane(v, 3, p[3]);
  return v;
}

static inline void store_n(f32 *p, v128_t v, int r) {
  p[0] = wasm_f32x4_extract_lane(v, 0);
  if (r > 1) p[1] = wasm_f32x4_extract_lane(v, 1);
  if (r > 2) p[2] = wasm_f32x4_extract_lane(v, 2);
  if (r > 3) p[3] = wasm_f32x4_extract_lane(v, 3);
}

/* Unary op codes (wasm-elementwise.ts UNARY_CODE). */
enum {
  U_NEG = 0, U_EXP, U_LOG, U_SQRT, U_RSQRT, U_ABS, U_SIGN, U_SQUARE, U_RECIP, U_TANH,
  U_RELU, U_LEAKY, U_SILU, U_SIGMOID, U_SOFTPLUS, U_CLAMP, U_AFFINE, U_IDENTITY, U_FLOOR,
};

static inline v128_t v_sign(v128_t x) {
  v128_t r = wasm_v128_or(wasm_v128_and(wasm_f32x4_gt(x, VF(0.f)), VF(1.f)), wasm_v128_and(wasm_f32x4_lt(x, VF(0.f)), VF(-1.f)));
  return wasm_v128_bitselect(x, r, wasm_f32x4_ne(x, x));
}

static inline v128_t unary_v(int op, v128_t x, v128_t a, v128_t b) {
  switch (op) {
    case U_NEG: return wasm_f32x4_neg(x);
    case U_EXP: return v_exp(x);
    case U_LOG: return v_log(x);
    case U_SQRT: return wasm_f32x4_sqrt(x);
    case U_RSQRT: return wasm_f32x4_div(VF(1.f), wasm_f32x4_sqrt(x));
    case U_ABS: return wasm_f32x4_abs(x);
    case U_SIGN: return v_sign(x);
    case U_SQUARE: return wasm_f32x4_mul(x, x);
    case U_RECIP: return wasm_f32x4_div(VF(1.f), x);
    case U_TANH: return v_tanh(x);
    case U_RELU: return wasm_v128_and(x, wasm_f32x4_gt(x, VF(0.f)));
    case U_LEAKY: return wasm_v128_bitselect(x, wasm_f32x4_mul(x, a), wasm_f32x4_gt(x, VF(0.f)));
    case U_SILU: return wasm_f32x4_mul(x, v_sigmoid(x));
    case U_SIGMOID: return v_sigmoid(x);
    case U_SOFTPLUS: return v_softplus(x);
    case U_CLAMP: {
      /* JS: v < a ? a : v > b ? b : v (NaN passes through) */
      v128_t r = wasm_v128_bitselect(b, x, wasm_f32x4_gt(x, b));
      return wasm_v128_bitselect(a, r, wasm_f32x4_lt(x, a));
    }
    case U_AFFINE: return wasm_f32x4_add(wasm_f32x4_mul(x, a), b);
    case U_FLOOR: return wasm_f32x4_floor(x);
    default: return x; /* identity */
  }
}

/* y = op(x) over n elements; alpha/beta as in UnaryKernel. */
__attribute__((export_name("unary_f")))
void unary_f(int op, const f32 *x, f32 *y, int n, f32 alpha, f32 beta) {
  v128_t a = wasm_f32x4_splat(alpha), b = wasm_f32x4_splat(beta);
  int i = 0;
#define UNARY_LOOP(OP)                                                          \
  for (; i + 8 <= n; i += 8) {                                                  \
    v128_t x0 = wasm_v128_load(x + i), x1 = wasm_v128_load(x + i + 4);          \
    wasm_v128_store(y + i, unary_v(OP, x0, a, b));                              \
    wasm_v128_store(y + i + 4, unary_v(OP, x1, a, b));                          \
  }                                                                             \
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, unary_v(OP, wasm_v128_load(x + i), a, b)); \
  if (i < n) store_n(y + i, unary_v(OP, load_n(x + i, n - i), a, b), n - i);
  /* One specialised loop per op (the switch folds away inside each). */
  switch (op) {
    case U_NEG: UNARY_LOOP(U_NEG) break;
    case U_EXP: UNARY_LOOP(U_EXP) break;
    case U_LOG: UNARY_LOOP(U_LOG) break;
    case U_SQRT: UNARY_LOOP(U_SQRT) break;
    case U_RSQRT: UNARY_LOOP(U_RSQRT) break;
    case U_ABS: UNARY_LOOP(U_ABS) break;
    case U_SIGN: UNARY_LOOP(U_SIGN) break;
    case U_SQUARE: UNARY_LOOP(U_SQUARE) break;
    case U_RECIP: UNARY_LOOP(U_RECIP) break;
    case U_TANH: UNARY_LOOP(U_TANH) break;
    case U_RELU: UNARY_LOOP(U_RELU) break;
    case U_LEAKY: UNARY_LOOP(U_LEAKY) break;
    case U_SILU: UNARY_LOOP(U_SILU) break;
    case U_SIGMOID: UNARY_LOOP(U_SIGMOID) break;
    case U_SOFTPLUS: UNARY_LOOP(U_SOFTPLUS) break;
    case U_CLAMP: UNARY_LOOP(U_CLAMP) break;
    case U_AFFINE: UNARY_LOOP(U_AFFINE) break;
    case U_FLOOR: UNARY_LOOP(U_FLOOR) break;
    default: UNARY_LOOP(U_IDENTITY) break;
  }
#undef UNARY_LOOP
}

static inline v128_t unary_grad_v(int op, v128_t g, v128_t x, v128_t y, v128_t a, v128_t b) {
  switch (op) {
    case U_NEG: return wasm_f32x4_neg(g);
    case U_EXP: return wasm_f32x4_mul(g, y);
    case U_LOG: return wasm_f32x4_div(g, x);
    case U_SQRT: return wasm_f32x4_div(wasm_f32x4_mul(VF(0.5f), g), y);
    case U_RSQRT: return wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(VF(-0.5f), g), y), wasm_f32x4_mul(y, y));
    case U_ABS: return wasm_f32x4_mul(g, v_sign(x));
    case U_SIGN: case U_FLOOR: return VF(0.f);
    case U_SQUARE: return wasm_f32x4_mul(wasm_f32x4_mul(VF(2.f), g), x);
    case U_RECIP: return wasm_f32x4_mul(wasm_f32x4_neg(g), wasm_f32x4_mul(y, y));
    case U_TANH: return wasm_f32x4_mul(g, wasm_f32x4_sub(VF(1.f), wasm_f32x4_mul(y, y)));
    case U_RELU: return wasm_v128_and(g, wasm_f32x4_gt(x, VF(0.f)));
    case U_LEAKY: return wasm_v128_bitselect(g, wasm_f32x4_mul(a, g), wasm_f32x4_gt(x, VF(0.f)));
    case U_SILU: {
      v128_t s = v_sigmoid(x);
      return wasm_f32x4_mul(wasm_f32x4_mul(g, s), wasm_f32x4_add(VF(1.f), wasm_f32x4_mul(x, wasm_f32x4_sub(VF(1.f), s))));
    }
    case U_SIGMOID: return wasm_f32x4_mul(wasm_f32x4_mul(g, y), wasm_f32x4_sub(VF(1.f), y));
    case U_SOFTPLUS: return wasm_f32x4_mul(g, v_sigmoid(x));
    case U_CLAMP: return wasm_v128_and(g, wasm_v128_and(wasm_f32x4_ge(x, a), wasm_f32x4_le(x, b)));
    case U_AFFINE: return wasm_f32x4_mul(a, g);
    default: return g; /* identity */
  }
}

/* dx = dy * f'(x) (y = f(x) saved from the forward pass). */
__attribute__((export_name("unary_grad_f")))
void unary_grad_f(int op, const f32 *dy, const f32 *x, const f32 *y, f32 *dx, int n, f32 alpha, f32 beta) {
  v128_t a = wasm_f32x4_splat(alpha), b = wasm_f32x4_splat(beta);
  int i = 0;
#define GRAD_LOOP(OP)                                                                                   \
  for (; i + 4 <= n; i += 4)                                                                            \
    wasm_v128_store(dx + i, unary_grad_v(OP, wasm_v128_load(dy + i), wasm_v128_load(x + i), wasm_v128_load(y + i), a, b)); \
  if (i < n) store_n(dx + i, unary_grad_v(OP, load_n(dy + i, n - i), load_n(x + i, n - i), load_n(y + i, n - i), a, b), n - i);
  switch (op) {
    case U_NEG: GRAD_LOOP(U_NEG) break;
    case U_EXP: GRAD_LOOP(U_EXP) break;
    case U_LOG: GRAD_LOOP(U_LOG) break;
    case U_SQRT: GRAD_LOOP(U_SQRT) break;
    case U_RSQRT: GRAD_LOOP(U_RSQRT) break;
    case U_ABS: GRAD_LOOP(U_ABS) break;
    case U_SIGN: GRAD_LOOP(U_SIGN) break;
    case U_FLOOR: GRAD_LOOP(U_FLOOR) break;
    case U_SQUARE: GRAD_LOOP(U_SQUARE) break;
    case U_RECIP: GRAD_LOOP(U_RECIP) break;
    case U_TANH: GRAD_LOOP(U_TANH) break;
    case U_RELU: GRAD_LOOP(U_RELU) break;
    case U_LEAKY: GRAD_LOOP(U_LEAKY) break;
    case U_SILU: GRAD_LOOP(U_SILU) break;
    case U_SIGMOID: GRAD_LOOP(U_SIGMOID) break;
    case U_SOFTPLUS: GRAD_LOOP(U_SOFTPLUS) break;
    case U_CLAMP: GRAD_LOOP(U_CLAMP) break;
    case U_AFFINE: GRAD_LOOP(U_AFFINE) break;
    default: GRAD_LOOP(U_IDENTITY) break;
  }
#undef GRAD_LOOP
}

/* Binary op codes (wasm-elementwise.ts BINARY_CODE). Comparisons give 1 or 0. */
enum { B_ADD = 0, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_GT, B_GE, B_LT, B_LE, B_EQ };

static inline v128_t binary_v(int op, v128_t a, v128_t b) {
  switch (op) {
    case B_ADD: return wasm_f32x4_add(a, b);
    case B_SUB: return wasm_f32x4_sub(a, b);
    case B_MUL: return wasm_f32x4_mul(a, b);
    case B_DIV: return wasm_f32x4_div(a, b);
    /* JS reference: a > b || isNaN(a) ? a : b */
    case B_MAX: return wasm_v128_bitselect(a, b, wasm_v128_or(wasm_f32x4_gt(a, b), wasm_f32x4_ne(a, a)));
    case B_MIN: return wasm_v128_bitselect(a, b, wasm_v128_or(wasm_f32x4_lt(a, b), wasm_f32x4_ne(a, a)));
    case B_GT: return wasm_v128_and(wasm_f32x4_gt(a, b), VF(1.f));
    case B_GE: return wasm_v128_and(wasm_f32x4_ge(a, b), VF(1.f));
    case B_LT: return wasm_v128_and(wasm_f32x4_lt(a, b), VF(1.f));
    case B_LE: return wasm_v128_and(wasm_f32x4_le(a, b), VF(1.f));
    default: return wasm_v128_and(wasm_f32x4_eq(a, b), VF(1.f));
  }
}

/* One row of `n` outputs; sa/sb are 1 (walk) or 0 (broadcast one value). */
static inline void binary_row(int op, const f32 *a, int sa, const f32 *b, int sb, f32 *o, int n) {
  int i = 0;
  if (sa && sb) {
    for (; i + 4 <= n; i += 4) wasm_v128_store(o + i, binary_v(op, wasm_v128_load(a + i), wasm_v128_load(b + i)));
    if (i < n) store_n(o + i, binary_v(op, load_n(a + i, n - i), load_n(b + i, n - i)), n - i);
  } else if (sa) {
    v128_t vb = wasm_f32x4_splat(b[0]);
    for (; i + 4 <= n; i += 4) wasm_v128_store(o + i, binary_v(op, wasm_v128_load(a + i), vb));
    if (i < n) store_n(o + i, binary_v(op, load_n(a + i, n - i), vb), n - i);
  } else if (sb) {
    v128_t va = wasm_f32x4_splat(a[0]);
    for (; i + 4 <= n; i += 4) wasm_v128_store(o + i, binary_v(op, va, wasm_v128_load(b + i)));
    if (i < n) store_n(o + i, binary_v(op, va, load_n(b + i, n - i)), n - i);
  } else {
    v128_t v = binary_v(op, wasm_f32x4_splat(a[0]), wasm_f32x4_splat(b[0]));
    for (; i + 4 <= n; i += 4) wasm_v128_store(o + i, v);
    if (i < n) store_n(o + i, v, n - i);
  }
}

static void binary_rows(int op, const f32 *a, const f32 *b, f32 *out, int d0, int d1, int d2, int d3,
                        int sa0, int sa1, int sa2, int sa3, int sb0, int sb1, int sb2, int sb3) {
  for (int i0 = 0; i0 < d0; i0++)
    for (int i1 = 0; i1 < d1; i1++)
      for (int i2 = 0; i2 < d2; i2++) {
        const f32 *pa = a + (long)i0 * sa0 + (long)i1 * sa1 + (long)i2 * sa2;
        const f32 *pb = b + (long)i0 * sb0 + (long)i1 * sb1 + (long)i2 * sb2;
        binary_row(op, pa, sa3, pb, sb3, out, d3);
        out += d3;
      }
}

/*
 * out = op(a, b) with broadcasting, on a shape collapsed to 4 dims [d0, d1, d2, d3] (the caller
 * merges contiguous dims). sa*, sb* are element strides of a and b (0 where broadcast); the
 * innermost strides sa3/sb3 must be 0 or 1. out is dense.
 */
__attribute__((export_name("binary_f")))
void binary_f(int op, const f32 *a, const f32 *b, f32 *out, int d0, int d1, int d2, int d3,
              int sa0, int sa1, int sa2, int sa3, int sb0, int sb1, int sb2, int sb3) {
#define BIN(OP) binary_rows(OP, a, b, out, d0, d1, d2, d3, sa0, sa1, sa2, sa3, sb0, sb1, sb2, sb3); break;
  switch (op) {
    case B_ADD: BIN(B_ADD)
    case B_SUB: BIN(B_SUB)
    case B_MUL: BIN(B_MUL)
    case B_DIV: BIN(B_DIV)
    case B_MAX: BIN(B_MAX)
    case B_MIN: BIN(B_MIN)
    case B_GT: BIN(B_GT)
    case B_GE: BIN(B_GE)
    case B_LT: BIN(B_LT)
    case B_LE: BIN(B_LE)
    default: BIN(B_EQ)
  }
#undef BIN
}

/*
 * Reduction of a contiguous [outer, red, inner] view over the middle axis.
 * op: 0 sum, 1 mean, 2 max, 3 min (NaN propagates, like the JS reference).
 */
__attribute__((export_name("reduce_f")))
void reduce_f(int op, const f32 *x, f32 *y, int outer, int red, int inner) {
  const f32 init = op == 2 ? -__builtin_inff() : op == 3 ? __builtin_inff() : 0.f;
  const v128_t vinit = wasm_f32x4_splat(init);
  const f32 scale = op == 1 && red > 0 ? 1.f / (f32)red : 1.f;
  for (int o = 0; o < outer; o++) {
    const f32 *xo = x + (long)o * red * inner;
    f32 *yo = y + (long)o * inner;
    if (inner == 1) {
      /* Contiguous row: 4 vector accumulators, then a horizontal step. */
      v128_t acc0 = vinit, acc1 = vinit;
      int p = 0;
      for (; p + 8 <= red; p += 8) {
        v128_t u = wasm_v128_load(xo + p), w = wasm_v128_load(xo + p + 4);
        if (op <= 1) { acc0 = wasm_f32x4_add(acc0, u); acc1 = wasm_f32x4_add(acc1, w); }
        else if (op == 2) { acc0 = wasm_f32x4_max(acc0, u); acc1 = wasm_f32x4_max(acc1, w); }
        else { acc0 = wasm_f32x4_min(acc0, u); acc1 = wasm_f32x4_min(acc1, w); }
      }
      v128_t acc = op <= 1 ? wasm_f32x4_add(acc0, acc1) : op == 2 ? wasm_f32x4_max(acc0, acc1) : wasm_f32x4_min(acc0, acc1);
      f32 s0 = wasm_f32x4_extract_lane(acc, 0), s1 = wasm_f32x4_extract_lane(acc, 1);
      f32 s2 = wasm_f32x4_extract_lane(acc, 2), s3 = wasm_f32x4_extract_lane(acc, 3);
      f32 s;
      if (op <= 1) {
        s = (s0 + s1) + (s2 + s3);
        for (; p < red; p++) s += xo[p];
      } else {
        v128_t t = wasm_f32x4_splat(s0);
        t = op == 2 ? wasm_f32x4_max(t, wasm_f32x4_splat(s1)) : wasm_f32x4_min(t, wasm_f32x4_splat(s1));
        t = op == 2 ? wasm_f32x4_max(t, wasm_f32x4_splat(s2)) : wasm_f32x4_min(t, wasm_f32x4_splat(s2));
        t = op == 2 ? wasm_f32x4_max(t, wasm_f32x4_splat(s3)) : wasm_f32x4_min(t, wasm_f32x4_splat(s3));
        for (; p < red; p++) t = op == 2 ? wasm_f32x4_max(t, wasm_f32x4_splat(xo[p])) : wasm_f32x4_min(t, wasm_f32x4_splat(xo[p]));
        s = wasm_f32x4_extract_lane(t, 0);
      }
      yo[0] = s * scale;
      continue;
    }
    /* Column-wise: accumulate whole rows of `inner` into y. */
    int j = 0;
    for (; j + 4 <= inner; j += 4) wasm_v128_store(yo + j, vinit);
    for (; j < inner; j++) yo[j] = init;
    for (int p = 0; p < red; p++) {
      const f32 *r = xo + (long)p * inner;
      j = 0;
      if (op <= 1) {
        for (; j + 4 <= inner; j += 4) wasm_v128_store(yo + j, wasm_f32x4_add(wasm_v128_load(yo + j), wasm_v128_load(r + j)));
        for (; j < inner; j++) yo[j] += r[j];
      } else if (op == 2) {
        for (; j + 4 <= inner; j += 4) wasm_v128_store(yo + j, wasm_f32x4_max(wasm_v128_load(yo + j), wasm_v128_load(r + j)));
        for (; j < inner; j++) yo[j] = wasm_f32x4_extract_lane(wasm_f32x4_max(wasm_f32x4_splat(yo[j]), wasm_f32x4_splat(r[j])), 0);
      } else {
        for (; j + 4 <= inner; j += 4) wasm_v128_store(yo + j, wasm_f32x4_min(wasm_v128_load(yo + j), wasm_v128_load(r + j)));
        for (; j < inner; j++) yo[j] = wasm_f32x4_extract_lane(wasm_f32x4_min(wasm_f32x4_splat(yo[j]), wasm_f32x4_splat(r[j])), 0);
      }
    }
    if (op == 1) {
      v128_t vs = wasm_f32x4_splat(scale);
      j = 0;
      for (; j + 4 <= inner; j += 4) wasm_v128_store(yo + j, wasm_f32x4_mul(wasm_v128_load(yo + j), vs));
      for (; j < inner; j++) yo[j] *= scale;
    }
  }
}

/*
 * Softmax family over the last axis (rows of `size`, inner == 1): mode 0 softmax,
 * 1 log-softmax, 2 logsumexp (one value per row).
 */
__attribute__((export_name("softmax_rows")))
void softmax_rows(int mode, const f32 *x, f32 *y, int rows, int size) {
  for (int r = 0; r < rows; r++) {
    const f32 *xr = x + (long)r * size;
    v128_t mx = wasm_f32x4_splat(-__builtin_inff());
    int p = 0;
    for (; p + 4 <= size; p += 4) mx = wasm_f32x4_pmax(mx, wasm_v128_load(xr + p));
    f32 m = wasm_f32x4_extract_lane(mx, 0);
    for (int l = 1; l < 4; l++) {
      f32 v = l == 1 ? wasm_f32x4_extract_lane(mx, 1) : l == 2 ? wasm_f32x4_extract_lane(mx, 2) : wasm_f32x4_extract_lane(mx, 3);
      if (v > m) m = v;
    }
    for (; p < size; p++) if (xr[p] > m) m = xr[p];
    if (m == -__builtin_inff()) m = 0.f;
    v128_t vm = wasm_f32x4_splat(m);
    v128_t acc = wasm_f32x4_splat(0.f);
    p = 0;
    for (; p + 4 <= size; p += 4) acc = wasm_f32x4_add(acc, v_exp(wasm_f32x4_sub(wasm_v128_load(xr + p), vm)));
    if (p < size) {
      v128_t e = v_exp(wasm_f32x4_sub(load_n(xr + p, size - p), vm));
      /* zero the unused lanes */
      int rem = size - p;
      v128_t lanes = wasm_i32x4_make(0, 1, 2, 3);
      acc = wasm_f32x4_add(acc, wasm_v128_and(e, wasm_i32x4_lt(lanes, wasm_i32x4_splat(rem))));
    }
    f32 s = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) + (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
    f32 ls = wasm_f32x4_extract_lane(v_log(wasm_f32x4_splat(s)), 0);
    if (mode == 2) { y[r] = m + ls; continue; }
    f32 *yr = y + (long)r * size;
    p = 0;
    if (mode == 0) {
      v128_t inv = wasm_f32x4_splat(1.f / s);
      for (; p + 4 <= size; p += 4) wasm_v128_store(yr + p, wasm_f32x4_mul(v_exp(wasm_f32x4_sub(wasm_v128_load(xr + p), vm)), inv));
      if (p < size) store_n(yr + p, wasm_f32x4_mul(v_exp(wasm_f32x4_sub(load_n(xr + p, size - p), vm)), inv), size - p);
    } else {
      v128_t l = wasm_f32x4_splat(m + ls);
      for (; p + 4 <= size; p += 4) wasm_v128_store(yr + p, wasm_f32x4_sub(wasm_v128_load(xr + p), l));
      if (p < size) store_n(yr + p, wasm_f32x4_sub(load_n(xr + p, size - p), l), size - p);
    }
  }
}

/*
 * Layer normalisation over the last axis of [rows, d]: y = (x - mean) * rstd * gamma + beta,
 * rstd = 1 / sqrt(var + eps) (biased variance). Writes mean and rstd per row for the backward
 * pass. gamma/beta may be 0 (absent).
 */
__attribute__((export_name("layer_norm_f")))
void layer_norm_f(const f32 *x, const f32 *gamma, const f32 *beta, f32 *y, f32 *mean, f32 *rstd, int rows, int d, f32 eps) {
  const f32 invd = 1.f / (f32)d;
  for (int r = 0; r < rows; r++) {
    const f32 *xr = x + (long)r * d;
    f32 *yr = y + (long)r * d;
    v128_t acc = wasm_f32x4_splat(0.f);
    int p = 0;
    for (; p + 4 <= d; p += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(xr + p));
    f32 s = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) + (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
    for (; p < d; p++) s += xr[p];
    f32 mu = s * invd;
    v128_t vmu = wasm_f32x4_splat(mu);
    acc = wasm_f32x4_splat(0.f);
    p = 0;
    for (; p + 4 <= d; p += 4) { v128_t c = wasm_f32x4_sub(wasm_v128_load(xr + p), vmu); acc = wasm_f32x4_add(acc, wasm_f32x4_mul(c, c)); }
    f32 v = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) + (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
    for (; p < d; p++) { f32 c = xr[p] - mu; v += c * c; }
    f32 rs = 1.f / __builtin_sqrtf(v * invd + eps);
    mean[r] = mu;
    rstd[r] = rs;
    v128_t vrs = wasm_f32x4_splat(rs);
    p = 0;
    for (; p + 4 <= d; p += 4) {
      v128_t h = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(xr + p), vmu), vrs);
      if (gamma) h = wasm_f32x4_mul(h, wasm_v128_load(gamma + p));
      if (beta) h = wasm_f32x4_add(h, wasm_v128_load(beta + p));
      wasm_v128_store(yr + p, h);
    }
    for (; p < d; p++) {
      f32 h = (xr[p] - mu) * rs;
      if (gamma) h *= gamma[p];
      if (beta) h += beta[p];
      yr[p] = h;
    }
  }
}

/*
 * Backward of layer_norm_f. With xhat = (x - mean) * rstd and g = dy * gamma:
 *   dx = rstd * (g - mean_d(g) - xhat * mean_d(g * xhat)),
 *   dgamma = sum_rows(dy * xhat), dbeta = sum_rows(dy)   (written when the pointer is not 0).
 */
__attribute__((export_name("layer_norm_grad_f")))
void layer_norm_grad_f(const f32 *dy, const f32 *x, const f32 *mean, const f32 *rstd, const f32 *gamma,
                       f32 *dx, f32 *dgamma, f32 *dbeta, int rows, int d) {
  const f32 invd = 1.f / (f32)d;
  if (dgamma) for (int p = 0; p < d; p++) dgamma[p] = 0.f;
  if (dbeta) for (int p = 0; p < d; p++) dbeta[p] = 0.f;
  for (int r = 0; r < rows; r++) {
    const f32 *xr = x + (long)r * d, *gr = dy + (long)r * d;
    f32 *dr = dx + (long)r * d;
    const f32 mu = mean[r], rs = rstd[r];
    v128_t vmu = wasm_f32x4_splat(mu), vrs = wasm_f32x4_splat(rs);
    v128_t s1 = wasm_f32x4_splat(0.f), s2 = wasm_f32x4_splat(0.f);
    int p = 0;
    for (; p + 4 <= d; p += 4) {
      v128_t dyv = wasm_v128_load(gr + p);
      v128_t xh = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(xr + p), vmu), vrs);
      v128_t g = gamma ? wasm_f32x4_mul(dyv, wasm_v128_load(gamma + p)) : dyv;
      s1 = wasm_f32x4_add(s1, g);
      s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(g, xh));
      if (dgamma) wasm_v128_store(dgamma + p, wasm_f32x4_add(wasm_v128_load(dgamma + p), wasm_f32x4_mul(dyv, xh)));
      if (dbeta) wasm_v128_store(dbeta + p, wasm_f32x4_add(wasm_v128_load(dbeta + p), dyv));
    }
    f32 a1 = (wasm_f32x4_extract_lane(s1, 0) + wasm_f32x4_extract_lane(s1, 1)) + (wasm_f32x4_extract_lane(s1, 2) + wasm_f32x4_extract_lane(s1, 3));
    f32 a2 = (wasm_f32x4_extract_lane(s2, 0) + wasm_f32x4_extract_lane(s2, 1)) + (wasm_f32x4_extract_lane(s2, 2) + wasm_f32x4_extract_lane(s2, 3));
    for (; p < d; p++) {
      f32 xh = (xr[p] - mu) * rs;
      f32 g = gamma ? gr[p] * gamma[p] : gr[p];
      a1 += g;
      a2 += g * xh;
      if (dgamma) dgamma[p] += gr[p] * xh;
      if (dbeta) dbeta[p] += gr[p];
    }
    const f32 m1 = a1 * invd, m2 = a2 * invd;
    v128_t vm1 = wasm_f32x4_splat(m1), vm2 = wasm_f32x4_splat(m2);
    p = 0;
    for (; p + 4 <= d; p += 4) {
      v128_t dyv = wasm_v128_load(gr + p);
      v128_t xh = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(xr + p), vmu), vrs);
      v128_t g = gamma ? wasm_f32x4_mul(dyv, wasm_v128_load(gamma + p)) : dyv;
      wasm_v128_store(dr + p, wasm_f32x4_mul(vrs, wasm_f32x4_sub(wasm_f32x4_sub(g, vm1), wasm_f32x4_mul(xh, vm2))));
    }
    for (; p < d; p++) {
      f32 xh = (xr[p] - mu) * rs;
      f32 g = gamma ? gr[p] * gamma[p] : gr[p];
      dr[p] = rs * (g - m1 - xh * m2);
    }
  }
}

/* a += b (gradient accumulation). */
__attribute__((export_name("add_inplace")))
void add_inplace(f32 *a, const f32 *b, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(a + i, wasm_f32x4_add(wasm_v128_load(a + i), wasm_v128_load(b + i)));
  for (; i < n; i++) a[i] += b[i];
}
