/**
 * Elementwise ops: unary math and activations, broadcasting binary arithmetic, comparisons,
 * clamp and where. Each op is one {@link defineOp} (shape rule, forward, backward).
 */
import type { BinaryOp, UnaryOp } from '../backends/backend.ts';
import { applyOp, defineOp, type OpDef } from '../autograd.ts';
import { Tensor, empty, scalar } from '../tensor.ts';
import { broadcastShapes, padShape, unbroadcast } from './util.ts';

interface UnaryParams {
  alpha: number;
  beta: number;
}

const unaryDefs = new Map<UnaryOp, OpDef<UnaryParams>>();

/** The op definition of a unary kernel op (shared by all unary ops). */
export function unaryDef(op: UnaryOp): OpDef<UnaryParams> {
  let d = unaryDefs.get(op);
  if (!d) {
    d = defineOp<UnaryParams>({
      name: op,
      shape: (i) => [...i[0]!.shape],
      forward: (i, out, p, b) => b.dispatch({ kind: 'unary', op, size: out.size, alpha: p.alpha, beta: p.beta }, [i[0]!.buffer], [out.buffer]),
      backward: (g, i, out, p) => {
        const x = i[0]!;
        const dx = empty(x.shape, x.backend);
        x.backend.dispatch({ kind: 'unary-grad', op, size: x.size, alpha: p.alpha, beta: p.beta }, [g.buffer, x.buffer, out.buffer], [dx.buffer]);
        return [dx];
      },
    });
    unaryDefs.set(op, d);
  }
  return d;
}

function unary(op: UnaryOp, x: Tensor, alpha = 0, beta = 0): Tensor {
  return applyOp(unaryDef(op), [x], { alpha, beta });
}

/** -x */
export const neg = (x: Tensor): Tensor => unary('neg', x);
/** e^x */
export const exp = (x: Tensor): Tensor => unary('exp', x);
/** Natural log (NaN for x < 0, -Infinity at 0). */
export const log = (x: Tensor): Tensor => unary('log', x);
/** Square root. */
export const sqrt = (x: Tensor): Tensor => unary('sqrt', x);
/** 1 / sqrt(x). */
export const rsqrt = (x: Tensor): Tensor => unary('rsqrt', x);
/** |x| (gradient sign(x), 0 at 0). */
export const abs = (x: Tensor): Tensor => unary('abs', x);
/** sign(x) (zero gradient). */
export const sign = (x: Tensor): Tensor => unary('sign', x);
/** x^2 */
export const square = (x: Tensor): Tensor => unary('square', x);
/** 1/x */
export const reciprocal = (x: Tensor): Tensor => unary('reciprocal', x);
/** tanh(x) */
export const tanh = (x: Tensor): Tensor => unary('tanh', x);
/** max(x, 0) (gradient 0 at 0). */
export const relu = (x: Tensor): Tensor => unary('relu', x);
/** x > 0 ? x : slope*x (default slope 0.01). */
export const leakyRelu = (x: Tensor, slope = 0.01): Tensor => unary('leaky-relu', x, slope);
/** x * sigmoid(x) */
export const silu = (x: Tensor): Tensor => unary('silu', x);
/** 1 / (1 + e^-x), numerically stable. */
export const sigmoid = (x: Tensor): Tensor => unary('sigmoid', x);
/** log(1 + e^x), numerically stable. */
export const softplus = (x: Tensor): Tensor => unary('softplus', x);
/** floor(x) (zero gradient). */
export const floor = (x: Tensor): Tensor => unary('floor', x);
/** min(max(x, lo), hi); gradient passes where lo <= x <= hi. */
export const clamp = (x: Tensor, lo: number, hi: number): Tensor => unary('clamp', x, lo, hi);
/** x^p for a scalar exponent p. */
export const powScalar = (x: Tensor, p: number): Tensor => unary('pow-scalar', x, p);
/** a*x + b for scalars a, b. */
export const affine = (x: Tensor, a: number, b: number): Tensor => unary('affine', x, a, b);
/** x + s (scalar). */
export const addScalar = (x: Tensor, s: number): Tensor => unary('affine', x, 1, s);
/** x * s (scalar). */
export const mulScalar = (x: Tensor, s: number): Tensor => unary('affine', x, s, 0);
/** Differentiable copy. */
export const identity = (x: Tensor): Tensor => unary('identity', x);

// ------------------------------------------------------------------------------------------------

const binaryDefs = new Map<BinaryOp, OpDef<null>>();

function binaryGrad(op: BinaryOp, g: Tensor, a: Tensor, b: Tensor, out: Tensor): (Tensor | null)[] {
  switch (op) {
    case 'add': return [unbroadcast(g, a.shape), unbroadcast(g, b.shape)];
    case 'sub': return [unbroadcast(g, a.shape), unbroadcast(neg(g), b.shape)];
    case 'mul': return [a.requiresGrad ? unbroadcast(mul(g, b), a.shape) : null, b.requiresGrad ? unbroadcast(mul(g, a), b.shape) : null];
    case 'div': {
      const ga = a.requiresGrad ? unbroadcast(div(g, b), a.shape) : null;
      // d/db a/b = -a/b^2 = -out/b
      const gb = b.requiresGrad ? unbroadcast(neg(div(mul(g, out), b)), b.shape) : null;
      return [ga, gb];
    }
    case 'pow': {
      // d/da a^b = b a^(b-1) = b*out/a ; d/db = out * ln a
      const ga = a.requiresGrad ? unbroadcast(mul(g, mul(b, pow(a, addScalar(b, -1)))), a.shape) : null;
      const gb = b.requiresGrad ? unbroadcast(mul(g, mul(out, log(a))), b.shape) : null;
      return [ga, gb];
    }
    case 'max': case 'min': {
      // Gradient to the selected input; ties go to a.
      const selA = op === 'max' ? ge(a, b) : le(a, b);
      const ga = a.requiresGrad ? unbroadcast(mul(g, selA), a.shape) : null;
      const gb = b.requiresGrad ? unbroadcast(mul(g, affine(selA, -1, 1)), b.shape) : null;
      return [ga, gb];
    }
    default: return [null, null];
  }
}

/** The op definition of a broadcasting binary kernel op. */
export function binaryDef(op: BinaryOp): OpDef<null> {
  let d = binaryDefs.get(op);
  if (!d) {
    const differentiable = ['add', 'sub', 'mul', 'div', 'pow', 'max', 'min'].includes(op);
    d = defineOp<null>({
      name: op,
      shape: (i) => broadcastShapes(i[0]!.shape, i[1]!.shape, op),
      forward: (i, out, _p, be) => {
        const r = out.shape.length;
        be.dispatch(
          { kind: 'binary', op, outShape: [...out.shape], aShape: padShape(i[0]!.shape, r), bShape: padShape(i[1]!.shape, r) },
          [i[0]!.buffer, i[1]!.buffer],
          [out.buffer],
        );
      },
      ...(differentiable ? { backward: (g: Tensor, i: readonly Tensor[], out: Tensor) => binaryGrad(op, g, i[0]!, i[1]!, out) } : {}),
    });
    binaryDefs.set(op, d);
  }
  return d;
}

type Operand = Tensor | number;

function asTensor(v: Operand, like: Tensor): Tensor {
  return typeof v === 'number' ? scalar(v, like.backend) : v;
}

function binary(op: BinaryOp, a: Operand, b: Operand): Tensor {
  if (typeof a === 'number' && typeof b === 'number') throw new Error(`compute: ${op} needs at least one tensor`);
  const ta = typeof a === 'number' ? asTensor(a, b as Tensor) : a;
  const tb = typeof b === 'number' ? asTensor(b, ta) : b;
  return applyOp(binaryDef(op), [ta, tb], null);
}

/** a + b (broadcasting; a number operand becomes a scalar tensor). */
export const add = (a: Operand, b: Operand): Tensor => binary('add', a, b);
/** a - b (broadcasting). */
export const sub = (a: Operand, b: Operand): Tensor => binary('sub', a, b);
/** a * b (broadcasting). */
export const mul = (a: Operand, b: Operand): Tensor => binary('mul', a, b);
/** a / b (broadcasting). */
export const div = (a: Operand, b: Operand): Tensor => binary('div', a, b);
/** a ^ b (broadcasting; gradient w.r.t. b needs a > 0). */
export const pow = (a: Operand, b: Operand): Tensor => binary('pow', a, b);
/** Elementwise maximum (gradient to a on ties). */
export const maximum = (a: Operand, b: Operand): Tensor => binary('max', a, b);
/** Elementwise minimum (gradient to a on ties). */
export const minimum = (a: Operand, b: Operand): Tensor => binary('min', a, b);
/** 1 where a > b else 0 (no gradient). */
export const gt = (a: Operand, b: Operand): Tensor => binary('gt', a, b);
/** 1 where a >= b else 0. */
export const ge = (a: Operand, b: Operand): Tensor => binary('ge', a, b);
/** 1 where a < b else 0. */
export const lt = (a: Operand, b: Operand): Tensor => binary('lt', a, b);
/** 1 where a <= b else 0. */
export const le = (a: Operand, b: Operand): Tensor => binary('le', a, b);
/** 1 where a == b else 0. */
export const eq = (a: Operand, b: Operand): Tensor => binary('eq', a, b);

/** where(cond, a, b): a where cond != 0, else b; broadcasting over all three. */
export const whereDef = defineOp<null>({
  name: 'where',
  shape: (i) => broadcastShapes(broadcastShapes(i[0]!.shape, i[1]!.shape, 'where'), i[2]!.shape, 'where'),
  forward: (i, out, _p, be) => {
    const r = out.shape.length;
    be.dispatch(
      { kind: 'where', outShape: [...out.shape], condShape: padShape(i[0]!.shape, r), aShape: padShape(i[1]!.shape, r), bShape: padShape(i[2]!.shape, r) },
      [i[0]!.buffer, i[1]!.buffer, i[2]!.buffer],
      [out.buffer],
    );
  },
  backward: (g, i) => {
    const [c, a, b] = i as [Tensor, Tensor, Tensor];
    const z = scalar(0, g.backend);
    return [
      null,
      a.requiresGrad ? unbroadcast(where(c, g, z), a.shape) : null,
      b.requiresGrad ? unbroadcast(where(c, z, g), b.shape) : null,
    ];
  },
});

/** Selects a where cond != 0, else b (broadcasting). No gradient flows into cond. */
export function where(cond: Tensor, a: Operand, b: Operand): Tensor {
  return applyOp(whereDef, [cond, asTensor(a, cond), asTensor(b, cond)], null);
}
