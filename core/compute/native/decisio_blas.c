/*
 * decisio_blas: a tiny N-API addon exposing the CPU backend's matmul kernel on top of OpenBLAS
 * (cblas_sgemm), with the bias + activation epilogue in C. Built by `scripts/build-native.mjs`
 * only when Debian's libopenblas-dev is present; the compute core falls back to wasm otherwise.
 *
 * JS signature:
 *   matmul(a, b, bias|null, c, batch, m, n, k, transA, transB, aStride, bStride, biasStride,
 *          act, alpha, accumulate)
 *   act: 0 none, 1 relu, 2 leaky-relu, 3 tanh, 4 sigmoid, 5 silu
 *   setThreads(n), getThreads()
 *   coreName()                                    the CPU kernels OpenBLAS picked (e.g. 'Haswell')
 *   adam(p, g, m, v, lr, b1, b2, eps, wd, decoupled, bc1, bc2, gradScale)   (in place)
 *   activationGrad(dy, y, dx, n, act, alpha)      act as above, 5 (silu) not supported
 *   sumRows(x, rows, cols, out)                   bias gradients
 * Elementwise loops are compiled for AVX2 and baseline x86-64 (target_clones, picked at load).
 */
#include <node_api.h>
#include <cblas.h>
#include <math.h>
#include <stddef.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

static float *f32(napi_env env, napi_value v, size_t *len) {
  napi_typedarray_type t;
  size_t length;
  void *data;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &t, &length, &data, &ab, &off) != napi_ok || t != napi_float32_array) {
    napi_throw_type_error(env, NULL, "expected Float32Array");
    return NULL;
  }
  if (len) *len = length;
  return (float *)data;
}

static int i32(napi_env env, napi_value v) {
  int32_t r = 0;
  napi_get_value_int32(env, v, &r);
  return r;
}

static napi_value Matmul(napi_env env, napi_callback_info info) {
  size_t argc = 16;
  napi_value argv[16];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 16) {
    napi_throw_error(env, NULL, "matmul: 16 arguments expected");
    return NULL;
  }
  float *A = f32(env, argv[0], NULL);
  float *B = f32(env, argv[1], NULL);
  napi_valuetype bt;
  napi_typeof(env, argv[2], &bt);
  float *bias = bt == napi_null ? NULL : f32(env, argv[2], NULL);
  float *C = f32(env, argv[3], NULL);
  if (!A || !B || !C) return NULL;
  int batch = i32(env, argv[4]), m = i32(env, argv[5]), n = i32(env, argv[6]), k = i32(env, argv[7]);
  int tA = i32(env, argv[8]), tB = i32(env, argv[9]);
  int aS = i32(env, argv[10]), bS = i32(env, argv[11]), biasS = i32(env, argv[12]);
  int act = i32(env, argv[13]);
  double alphaD = 0;
  napi_get_value_double(env, argv[14], &alphaD);
  float alpha = (float)alphaD;
  int acc = i32(env, argv[15]);
  for (int b = 0; b < batch; b++) {
    float *a = A + (size_t)b * aS;
    float *bb = B + (size_t)b * bS;
    float *c = C + (size_t)b * m * n;
    float *bi = bias ? bias + (size_t)b * biasS : NULL;
    float beta = 0.0f;
    if (acc) beta = 1.0f;
    if (bi) {
      for (int i = 0; i < m; i++) {
        float *row = c + (size_t)i * n;
        if (acc) for (int j = 0; j < n; j++) row[j] += bi[j];
        else for (int j = 0; j < n; j++) row[j] = bi[j];
      }
      beta = 1.0f;
    }
    if (k > 0) {
      if (m == 1 && !tA) {
        /* vector-matrix: y = op(B)^T x */
        cblas_sgemv(CblasRowMajor, tB ? CblasNoTrans : CblasTrans, tB ? n : k, tB ? k : n, 1.0f, bb, tB ? k : n, a, 1, beta, c, 1);
      } else {
        cblas_sgemm(CblasRowMajor, tA ? CblasTrans : CblasNoTrans, tB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, tA ? m : k, bb,
                    tB ? k : n, beta, c, n);
      }
    } else if (beta == 0.0f) {
      for (size_t i = 0; i < (size_t)m * n; i++) c[i] = 0.0f;
    }
    size_t total = (size_t)m * n;
    switch (act) {
      case 1: for (size_t i = 0; i < total; i++) c[i] = c[i] > 0.0f ? c[i] : 0.0f; break;
      case 2: for (size_t i = 0; i < total; i++) c[i] = c[i] > 0.0f ? c[i] : alpha * c[i]; break;
      case 3: for (size_t i = 0; i < total; i++) c[i] = tanhf(c[i]); break;
      case 4: for (size_t i = 0; i < total; i++) c[i] = c[i] >= 0.0f ? 1.0f / (1.0f + expf(-c[i])) : expf(c[i]) / (1.0f + expf(c[i])); break;
      case 5: for (size_t i = 0; i < total; i++) { float v = c[i]; float s = v >= 0.0f ? 1.0f / (1.0f + expf(-v)) : expf(v) / (1.0f + expf(v)); c[i] = v * s; } break;
      default: break;
    }
  }
  return NULL;
}

static double dbl(napi_env env, napi_value v) {
  double r = 0;
  napi_get_value_double(env, v, &r);
  return r;
}

/* adam(p, g, m, v, lr, b1, b2, eps, wd, decoupled, bc1, bc2, gradScale): fused in-place step. */
CLONES
static void adam_kernel(float *p, const float *g, float *m, float *v, size_t n, float lr, float b1, float b2, float eps,
                        float l2, float dw, float ibc1, float ibc2, float gs) {
  const float ib1 = 1.0f - b1, ib2 = 1.0f - b2;
  for (size_t i = 0; i < n; i++) {
    float pv = p[i];
    float gi = g[i] * gs + l2 * pv;
    float mi = b1 * m[i] + ib1 * gi;
    float vi = b2 * v[i] + ib2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] = pv - lr * ((mi * ibc1) / (sqrtf(vi * ibc2) + eps) + dw * pv);
  }
}

static napi_value Adam(napi_env env, napi_callback_info info) {
  size_t argc = 13;
  napi_value a[13];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  size_t n;
  float *p = f32(env, a[0], &n), *g = f32(env, a[1], NULL), *m = f32(env, a[2], NULL), *v = f32(env, a[3], NULL);
  if (!p || !g || !m || !v) return NULL;
  int decoupled = i32(env, a[9]);
  float wd = (float)dbl(env, a[8]);
  adam_kernel(p, g, m, v, n, (float)dbl(env, a[4]), (float)dbl(env, a[5]), (float)dbl(env, a[6]), (float)dbl(env, a[7]),
              decoupled ? 0.0f : wd, decoupled ? wd : 0.0f, (float)(1.0 / dbl(env, a[10])), (float)(1.0 / dbl(env, a[11])),
              (float)dbl(env, a[12]));
  return NULL;
}

/* activationGrad(dy, y, dx, act, alpha): act 0 none, 1 relu, 2 leaky, 3 tanh, 4 sigmoid (from outputs). */
CLONES
static void act_grad_kernel(const float *dy, const float *y, float *dx, size_t n, int act, float alpha) {
  switch (act) {
    case 1: for (size_t i = 0; i < n; i++) dx[i] = y[i] > 0.0f ? dy[i] : 0.0f; break;
    case 2: for (size_t i = 0; i < n; i++) dx[i] = y[i] > 0.0f ? dy[i] : alpha * dy[i]; break;
    case 3: for (size_t i = 0; i < n; i++) dx[i] = dy[i] * (1.0f - y[i] * y[i]); break;
    case 4: for (size_t i = 0; i < n; i++) dx[i] = dy[i] * y[i] * (1.0f - y[i]); break;
    default: for (size_t i = 0; i < n; i++) dx[i] = dy[i]; break;
  }
}

static napi_value ActivationGrad(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  float *dy = f32(env, a[0], NULL), *y = f32(env, a[1], NULL), *dx = f32(env, a[2], NULL);
  if (!dy || !y || !dx) return NULL;
  act_grad_kernel(dy, y, dx, (size_t)i32(env, a[3]), i32(env, a[4]), (float)dbl(env, a[5]));
  return NULL;
}

/* sumRows(x, rows, cols, out): out[j] = sum_i x[i*cols + j]. */
CLONES
static void sum_rows_kernel(const float *x, size_t rows, size_t cols, float *out) {
  for (size_t j = 0; j < cols; j++) out[j] = 0.0f;
  for (size_t i = 0; i < rows; i++) {
    const float *r = x + i * cols;
    for (size_t j = 0; j < cols; j++) out[j] += r[j];
  }
}

static napi_value SumRows(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value a[4];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  float *x = f32(env, a[0], NULL), *out = f32(env, a[3], NULL);
  if (!x || !out) return NULL;
  sum_rows_kernel(x, (size_t)i32(env, a[1]), (size_t)i32(env, a[2]), out);
  return NULL;
}

extern void openblas_set_num_threads(int);
extern int openblas_get_num_threads(void);
extern char *openblas_get_corename(void);

static napi_value SetThreads(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  openblas_set_num_threads(i32(env, argv[0]));
  return NULL;
}

static napi_value GetThreads(napi_env env, napi_callback_info info) {
  napi_value r;
  napi_create_int32(env, openblas_get_num_threads(), &r);
  return r;
}

/* The kernel set OpenBLAS chose for this CPU (OPENBLAS_CORETYPE overrides it in DYNAMIC_ARCH
 * builds): products round differently from one set to another. */
static napi_value CoreName(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value r;
  const char *name = openblas_get_corename();
  napi_create_string_utf8(env, name ? name : "", NAPI_AUTO_LENGTH, &r);
  return r;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"matmul", NULL, Matmul, NULL, NULL, NULL, napi_default, NULL},
    {"setThreads", NULL, SetThreads, NULL, NULL, NULL, napi_default, NULL},
    {"getThreads", NULL, GetThreads, NULL, NULL, NULL, napi_default, NULL},
    {"adam", NULL, Adam, NULL, NULL, NULL, napi_default, NULL},
    {"activationGrad", NULL, ActivationGrad, NULL, NULL, NULL, napi_default, NULL},
    {"sumRows", NULL, SumRows, NULL, NULL, NULL, napi_default, NULL},
    {"coreName", NULL, CoreName, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 7, props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
