/*
 * WebAssembly SIMD (128-bit) kernels of the CPU backend. Build: scripts/build-wasm.sh.
 *
 * sgemm_cols computes C[:, n0:n1] = act(op(A) @ op(B) + bias) (+ C when accumulate) for ONE
 * matrix, Goto-style: KC x NC blocks of B packed into 8-column panels, 4-row slivers of A
 * packed per block, a 4x8 register-tiled micro-kernel (8 v128 accumulators). A worker pool
 * splits the columns [0, N) between threads sharing one memory; every thread passes its own
 * `scratch` area (no shadow-stack use, no static data, so instances can share memory).
 *
 * All pointers are byte offsets into linear memory; matrices are dense row-major.
 * act: 0 none, 1 relu, 2 leaky-relu, 3 tanh, 4 sigmoid (silu: the caller, which keeps the
 * pre-activation for the backward pass).
 */
#include "vmath.h"
#define KC 256
#define NC 512

static inline v128_t splat_lane(v128_t a, int l) {
  switch (l) {
    case 0: return wasm_i32x4_shuffle(a, a, 0, 0, 0, 0);
    case 1: return wasm_i32x4_shuffle(a, a, 1, 1, 1, 1);
    case 2: return wasm_i32x4_shuffle(a, a, 2, 2, 2, 2);
    default: return wasm_i32x4_shuffle(a, a, 3, 3, 3, 3);
  }
}

/* Packs rows [p0, p0+kc) x cols [j0, j0+nr) of op(B) into bp[kc][8] (zero padded). */
static void pack_b(const f32 *B, int transB, int ldb, int p0, int kc, int j0, int nr, f32 *bp) {
  if (!transB) {
    for (int p = 0; p < kc; p++) {
      const f32 *src = B + (long)(p0 + p) * ldb + j0;
      f32 *d = bp + p * 8;
      if (nr == 8) {
        wasm_v128_store(d, wasm_v128_load(src));
        wasm_v128_store(d + 4, wasm_v128_load(src + 4));
      } else {
        for (int c = 0; c < nr; c++) d[c] = src[c];
        for (int c = nr; c < 8; c++) d[c] = 0.f;
      }
    }
  } else {
    for (int c = 0; c < nr; c++) {
      const f32 *src = B + (long)(j0 + c) * ldb + p0;
      for (int p = 0; p < kc; p++) bp[p * 8 + c] = src[p];
    }
    for (int c = nr; c < 8; c++)
      for (int p = 0; p < kc; p++) bp[p * 8 + c] = 0.f;
  }
}

/* Packs rows [i0, i0+mr) x k [p0, p0+kc) of op(A) into ap[kc][4] (zero padded). */
static void pack_a(const f32 *A, int transA, int lda, int i0, int mr, int p0, int kc, f32 *ap) {
  if (!transA) {
    if (mr == 4) {
      const f32 *r0 = A + (long)i0 * lda + p0, *r1 = r0 + lda, *r2 = r1 + lda, *r3 = r2 + lda;
      int p = 0;
      for (; p + 4 <= kc; p += 4) {
        v128_t x0 = wasm_v128_load(r0 + p), x1 = wasm_v128_load(r1 + p);
        v128_t x2 = wasm_v128_load(r2 + p), x3 = wasm_v128_load(r3 + p);
        v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5);
        v128_t t1 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5);
        v128_t t2 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7);
        v128_t t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
        wasm_v128_store(ap + p * 4, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
        wasm_v128_store(ap + p * 4 + 4, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
        wasm_v128_store(ap + p * 4 + 8, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
        wasm_v128_store(ap + p * 4 + 12, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
      }
      for (; p < kc; p++) {
        ap[p * 4] = r0[p]; ap[p * 4 + 1] = r1[p]; ap[p * 4 + 2] = r2[p]; ap[p * 4 + 3] = r3[p];
      }
    } else {
      for (int r = 0; r < mr; r++) {
        const f32 *src = A + (long)(i0 + r) * lda + p0;
        for (int p = 0; p < kc; p++) ap[p * 4 + r] = src[p];
      }
      for (int r = mr; r < 4; r++)
        for (int p = 0; p < kc; p++) ap[p * 4 + r] = 0.f;
    }
  } else {
    for (int p = 0; p < kc; p++) {
      const f32 *src = A + (long)(p0 + p) * lda + i0;
      f32 *d = ap + p * 4;
      if (mr == 4) wasm_v128_store(d, wasm_v128_load(src));
      else {
        for (int r = 0; r < mr; r++) d[r] = src[r];
        for (int r = mr; r < 4; r++) d[r] = 0.f;
      }
    }
  }
}

/* 4x8 micro-kernel: c[4][8] (row stride ldc) += ap^T bp over kc. */
static void kernel_4x8(int kc, const f32 *ap, const f32 *bp, f32 *c, int ldc) {
  f32 *c0 = c, *c1 = c + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
  v128_t a00 = wasm_v128_load(c0), a01 = wasm_v128_load(c0 + 4);
  v128_t a10 = wasm_v128_load(c1), a11 = wasm_v128_load(c1 + 4);
  v128_t a20 = wasm_v128_load(c2), a21 = wasm_v128_load(c2 + 4);
  v128_t a30 = wasm_v128_load(c3), a31 = wasm_v128_load(c3 + 4);
  for (int p = 0; p < kc; p++) {
    v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
    v128_t a = wasm_v128_load(ap);
    v128_t x = wasm_i32x4_shuffle(a, a, 0, 0, 0, 0);
    a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(x, b0));
    a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(x, b1));
    x = wasm_i32x4_shuffle(a, a, 1, 1, 1, 1);
    a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(x, b0));
    a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(x, b1));
    x = wasm_i32x4_shuffle(a, a, 2, 2, 2, 2);
    a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(x, b0));
    a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(x, b1));
    x = wasm_i32x4_shuffle(a, a, 3, 3, 3, 3);
    a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(x, b0));
    a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(x, b1));
    ap += 4;
    bp += 8;
  }
  wasm_v128_store(c0, a00); wasm_v128_store(c0 + 4, a01);
  wasm_v128_store(c1, a10); wasm_v128_store(c1 + 4, a11);
  wasm_v128_store(c2, a20); wasm_v128_store(c2 + 4, a21);
  wasm_v128_store(c3, a30); wasm_v128_store(c3 + 4, a31);
}

/* Edge tile: copy the partial C block into tile[4][8], run the kernel, copy back. */
static void kernel_edge(int kc, const f32 *ap, const f32 *bp, f32 *c, int ldc, int mr, int nr, f32 *tile) {
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 8; j++) tile[r * 8 + j] = (r < mr && j < nr) ? c[r * ldc + j] : 0.f;
  kernel_4x8(kc, ap, bp, tile, 8);
  for (int r = 0; r < mr; r++)
    for (int j = 0; j < nr; j++) c[r * ldc + j] = tile[r * 8 + j];
}

/* Small M (<= 4), B not transposed: stream B once (row by row, contiguous), SIMD over columns;
 * the C rows (<= 4 KB each for n <= 1024) stay in L1. Measured faster than register-tiling here
 * because B rows are read sequentially. */
static void small_m_nt(int m, int k, const f32 *A, int transA, int lda, const f32 *B, int ldb, f32 *C, int ldc, int n0, int n1) {
  for (int p = 0; p < k; p++) {
    const f32 *brow = B + (long)p * ldb;
    for (int i = 0; i < m; i++) {
      f32 av = transA ? A[(long)p * lda + i] : A[(long)i * lda + p];
      if (av == 0.f) continue;
      v128_t a = wasm_f32x4_splat(av);
      f32 *crow = C + (long)i * ldc;
      int j = n0;
      for (; j + 8 <= n1; j += 8) {
        wasm_v128_store(crow + j, wasm_f32x4_add(wasm_v128_load(crow + j), wasm_f32x4_mul(a, wasm_v128_load(brow + j))));
        wasm_v128_store(crow + j + 4, wasm_f32x4_add(wasm_v128_load(crow + j + 4), wasm_f32x4_mul(a, wasm_v128_load(brow + j + 4))));
      }
      for (; j + 4 <= n1; j += 4)
        wasm_v128_store(crow + j, wasm_f32x4_add(wasm_v128_load(crow + j), wasm_f32x4_mul(a, wasm_v128_load(brow + j))));
      for (; j < n1; j++) crow[j] += av * brow[j];
    }
  }
}

/* Small M (<= 4), B transposed (N x K): dot products SIMD over k. */
static void small_m_t(int m, int k, const f32 *A, int transA, int lda, const f32 *B, int ldb, f32 *C, int ldc, int n0, int n1) {
  for (int i = 0; i < m; i++) {
    for (int j = n0; j < n1; j++) {
      const f32 *brow = B + (long)j * ldb;
      f32 s = 0.f;
      if (!transA) {
        const f32 *arow = A + (long)i * lda;
        v128_t acc0 = wasm_f32x4_splat(0.f), acc1 = wasm_f32x4_splat(0.f);
        int p = 0;
        for (; p + 8 <= k; p += 8) {
          acc0 = wasm_f32x4_add(acc0, wasm_f32x4_mul(wasm_v128_load(arow + p), wasm_v128_load(brow + p)));
          acc1 = wasm_f32x4_add(acc1, wasm_f32x4_mul(wasm_v128_load(arow + p + 4), wasm_v128_load(brow + p + 4)));
        }
        acc0 = wasm_f32x4_add(acc0, acc1);
        s = wasm_f32x4_extract_lane(acc0, 0) + wasm_f32x4_extract_lane(acc0, 1) + wasm_f32x4_extract_lane(acc0, 2) + wasm_f32x4_extract_lane(acc0, 3);
        for (; p < k; p++) s += arow[p] * brow[p];
      } else {
        for (int p = 0; p < k; p++) s += A[(long)p * lda + i] * brow[p];
      }
      C[(long)i * ldc + j] += s;
    }
  }
}

/*
 * C[:, n0:n1] (+)= op(A) @ op(B) + bias, then act. scratch: >= (KC*NC + KC*4 + 32) floats.
 */
__attribute__((export_name("sgemm_cols")))
void sgemm_cols(int m, int n, int k, const f32 *A, int transA, const f32 *B, int transB, f32 *C,
                const f32 *bias, int act, f32 alpha, int accumulate, int n0, int n1, f32 *scratch) {
  const int lda = transA ? m : k;
  const int ldb = transB ? k : n;
  const int ldc = n;
  /* Initialise C with bias or zeros (or add bias when accumulating). */
  for (int i = 0; i < m; i++) {
    f32 *crow = C + (long)i * ldc;
    if (!accumulate) {
      if (bias) for (int j = n0; j < n1; j++) crow[j] = bias[j];
      else for (int j = n0; j < n1; j++) crow[j] = 0.f;
    } else if (bias) for (int j = n0; j < n1; j++) crow[j] += bias[j];
  }
  if (k > 0 && n1 > n0) {
    if (m <= 4) {
      if (!transB) small_m_nt(m, k, A, transA, lda, B, ldb, C, ldc, n0, n1);
      else small_m_t(m, k, A, transA, lda, B, ldb, C, ldc, n0, n1);
    } else {
      f32 *bpack = scratch;
      f32 *apack = scratch + KC * NC;
      f32 *tile = apack + KC * 4;
      for (int jc = n0; jc < n1; jc += NC) {
        int nc = n1 - jc < NC ? n1 - jc : NC;
        for (int p0 = 0; p0 < k; p0 += KC) {
          int kc = k - p0 < KC ? k - p0 : KC;
          for (int j = 0; j < nc; j += 8) {
            int nr = nc - j < 8 ? nc - j : 8;
            pack_b(B, transB, ldb, p0, kc, jc + j, nr, bpack + (long)(j / 8) * kc * 8);
          }
          for (int i0 = 0; i0 < m; i0 += 4) {
            int mr = m - i0 < 4 ? m - i0 : 4;
            pack_a(A, transA, lda, i0, mr, p0, kc, apack);
            for (int j = 0; j < nc; j += 8) {
              int nr = nc - j < 8 ? nc - j : 8;
              f32 *cb = C + (long)i0 * ldc + jc + j;
              const f32 *bp = bpack + (long)(j / 8) * kc * 8;
              if (mr == 4 && nr == 8) kernel_4x8(kc, apack, bp, cb, ldc);
              else kernel_edge(kc, apack, bp, cb, ldc, mr, nr, tile);
            }
          }
        }
      }
    }
  }
  if (act == 3 || act == 4) {
    for (int i = 0; i < m; i++) {
      f32 *crow = C + (long)i * ldc;
      int j = n0;
      if (act == 3) for (; j + 4 <= n1; j += 4) wasm_v128_store(crow + j, v_tanh(wasm_v128_load(crow + j)));
      else for (; j + 4 <= n1; j += 4) wasm_v128_store(crow + j, v_sigmoid(wasm_v128_load(crow + j)));
      for (; j < n1; j++) crow[j] = s_apply(act == 3 ? v_tanh : v_sigmoid, crow[j]);
    }
  }
  if (act == 1 || act == 2) {
    v128_t z = wasm_f32x4_splat(0.f), al = wasm_f32x4_splat(act == 2 ? alpha : 0.f);
    for (int i = 0; i < m; i++) {
      f32 *crow = C + (long)i * ldc;
      int j = n0;
      for (; j + 4 <= n1; j += 4) {
        v128_t v = wasm_v128_load(crow + j);
        v128_t neg = wasm_f32x4_lt(v, z);
        wasm_v128_store(crow + j, wasm_v128_bitselect(wasm_f32x4_mul(v, al), v, neg));
      }
      for (; j < n1; j++) if (crow[j] < 0.f) crow[j] *= (act == 2 ? alpha : 0.f);
    }
  }
}

/* Scratch floats one sgemm_cols call needs. */
__attribute__((export_name("scratch_floats")))
int scratch_floats(void) { return KC * NC + KC * 4 + 64; }

/* ---- Elementwise kernels of the backward pass and the optimizer (single thread). ---- */

/* dx = dy * act'(.) from the activation OUTPUT y (for 5 silu: from the PRE-activation).
 * act: 0 none, 1 relu, 2 leaky, 3 tanh, 4 sigmoid, 5 silu. */
__attribute__((export_name("act_grad")))
void act_grad(const f32 *dy, const f32 *y, f32 *dx, int n, int act, f32 alpha) {
  v128_t z = wasm_f32x4_splat(0.f), one = wasm_f32x4_splat(1.f), al = wasm_f32x4_splat(alpha);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t g = wasm_v128_load(dy + i), o = wasm_v128_load(y + i), r;
    switch (act) {
      case 1: r = wasm_v128_and(g, wasm_f32x4_gt(o, z)); break;
      case 2: r = wasm_v128_bitselect(g, wasm_f32x4_mul(g, al), wasm_f32x4_gt(o, z)); break;
      case 3: r = wasm_f32x4_mul(g, wasm_f32x4_sub(one, wasm_f32x4_mul(o, o))); break;
      case 4: r = wasm_f32x4_mul(wasm_f32x4_mul(g, o), wasm_f32x4_sub(one, o)); break;
      case 5: {
        v128_t s = v_sigmoid(o);
        r = wasm_f32x4_mul(wasm_f32x4_mul(g, s), wasm_f32x4_add(one, wasm_f32x4_mul(o, wasm_f32x4_sub(one, s))));
        break;
      }
      default: r = g; break;
    }
    wasm_v128_store(dx + i, r);
  }
  for (; i < n; i++) {
    f32 g = dy[i], o = y[i];
    switch (act) {
      case 1: dx[i] = o > 0.f ? g : 0.f; break;
      case 2: dx[i] = o > 0.f ? g : alpha * g; break;
      case 3: dx[i] = g * (1.f - o * o); break;
      case 4: dx[i] = g * o * (1.f - o); break;
      case 5: { f32 s = s_apply(v_sigmoid, o); dx[i] = g * s * (1.f + o * (1.f - s)); break; }
      default: dx[i] = g; break;
    }
  }
}

/* Fused Adam/AdamW step in place (see AdamKernel in backend.ts). */
__attribute__((export_name("adam")))
void adam(f32 *p, const f32 *g, f32 *m, f32 *v, int n, f32 lr, f32 b1, f32 b2, f32 eps, f32 l2, f32 dw, f32 ibc1, f32 ibc2, f32 gs) {
  v128_t vb1 = wasm_f32x4_splat(b1), vb2 = wasm_f32x4_splat(b2), vib1 = wasm_f32x4_splat(1.f - b1), vib2 = wasm_f32x4_splat(1.f - b2);
  v128_t veps = wasm_f32x4_splat(eps), vl2 = wasm_f32x4_splat(l2), vdw = wasm_f32x4_splat(dw), vlr = wasm_f32x4_splat(lr);
  v128_t vc1 = wasm_f32x4_splat(ibc1), vc2 = wasm_f32x4_splat(ibc2), vgs = wasm_f32x4_splat(gs);
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t pv = wasm_v128_load(p + i);
    v128_t gi = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(g + i), vgs), wasm_f32x4_mul(vl2, pv));
    v128_t mi = wasm_f32x4_add(wasm_f32x4_mul(vb1, wasm_v128_load(m + i)), wasm_f32x4_mul(vib1, gi));
    v128_t vi = wasm_f32x4_add(wasm_f32x4_mul(vb2, wasm_v128_load(v + i)), wasm_f32x4_mul(vib2, wasm_f32x4_mul(gi, gi)));
    wasm_v128_store(m + i, mi);
    wasm_v128_store(v + i, vi);
    v128_t upd = wasm_f32x4_div(wasm_f32x4_mul(mi, vc1), wasm_f32x4_add(wasm_f32x4_sqrt(wasm_f32x4_mul(vi, vc2)), veps));
    wasm_v128_store(p + i, wasm_f32x4_sub(pv, wasm_f32x4_mul(vlr, wasm_f32x4_add(upd, wasm_f32x4_mul(vdw, pv)))));
  }
  for (; i < n; i++) {
    f32 pv = p[i];
    f32 gi = g[i] * gs + l2 * pv;
    f32 mi = b1 * m[i] + (1.f - b1) * gi;
    f32 vi = b2 * v[i] + (1.f - b2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] = pv - lr * ((mi * ibc1) / (__builtin_sqrtf(vi * ibc2) + eps) + dw * pv);
  }
}

/* out[j] = sum_i x[i*cols + j] (bias gradients). */
__attribute__((export_name("sum_rows")))
void sum_rows(const f32 *x, int rows, int cols, f32 *out) {
  for (int j = 0; j < cols; j++) out[j] = 0.f;
  for (int i = 0; i < rows; i++) {
    const f32 *r = x + (long)i * cols;
    int j = 0;
    for (; j + 4 <= cols; j += 4) wasm_v128_store(out + j, wasm_f32x4_add(wasm_v128_load(out + j), wasm_v128_load(r + j)));
    for (; j < cols; j++) out[j] += r[j];
  }
}
