/**
 * Define-by-run reverse-mode autodiff. Ops are declared once with {@link defineOp} (shape rule,
 * forward, backward) and applied with {@link applyOp}, which records a {@link GradNode} when
 * gradients are enabled and an input requires them. `backward(loss)` walks the graph in reverse
 * topological order and accumulates gradients into leaves' `.grad`.
 */
import type { Backend } from './backends/backend.ts';
import { shapeSize } from './backends/backend.ts';
import { Tensor, empty, isGradEnabled, keep, noGrad, setBackwardHook, full } from './tensor.ts';

/**
 * The one specification of an op. `P` is the op's static parameters (axes, scalars, flags).
 */
export interface OpDef<P> {
  /** Unique op name (used by tests and error messages). */
  readonly name: string;
  /**
   * Output shape from input shapes; throws on incompatible shapes.
   * @throws Error with a message naming the op and the shapes.
   */
  shape(inputs: readonly Tensor[], params: P): number[];
  /** Fills `out` (already allocated with the shape above) by dispatching kernels. */
  forward(inputs: readonly Tensor[], out: Tensor, params: P, backend: Backend): void;
  /**
   * Input gradients given the output gradient. Runs under `noGrad`. Omit for
   * non-differentiable ops (comparisons, random).
   */
  backward?(grad: Tensor, inputs: readonly Tensor[], out: Tensor, params: P): (Tensor | null)[];
}

/** Declares an op (identity function that fixes the type). */
export function defineOp<P>(def: OpDef<P>): OpDef<P> {
  return def;
}

/**
 * Runs an op: checks backends match, allocates the output, runs forward, records the node.
 * @throws Error when inputs live on different backends or are disposed.
 */
export function applyOp<P>(def: OpDef<P>, inputs: readonly Tensor[], params: P): Tensor {
  const backend = inputs[0]!.backend;
  for (let i = 1; i < inputs.length; i++) {
    if (inputs[i]!.backend !== backend) {
      throw new Error(`compute: ${def.name}: inputs live on different backends (${backend.name}, ${inputs[i]!.backend.name})`);
    }
  }
  const shape = def.shape(inputs, params);
  const out = empty(shape, backend);
  if (out.size > 0) def.forward(inputs, out, params, backend);
  if (def.backward && isGradEnabled()) {
    let needs = false;
    for (const t of inputs) if (t.requiresGrad) { needs = true; break; }
    if (needs) {
      out.requiresGrad = true;
      const bw = def.backward;
      out.gradNode = {
        name: def.name,
        inputs,
        backward: (g) => bw(g, inputs, out, params),
      };
    }
  }
  return out;
}

/** In-place a += b on equal shapes (no autograd). */
function accumulateInto(a: Tensor, b: Tensor): void {
  a.backend.dispatch({ kind: 'copy', shape: [a.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: true }, [b.buffer], [a.buffer]);
}

/** Fresh copy of a tensor's data (no autograd). */
function cloneData(t: Tensor): Tensor {
  const c = empty(t.shape, t.backend);
  if (t.size) t.backend.dispatch({ kind: 'copy', shape: [t.size], srcStrides: [1], srcOffset: 0, dstStrides: [1], dstOffset: 0, accumulate: false }, [t.buffer], [c.buffer]);
  return c;
}

/**
 * Reverse-mode autodiff from `root`. `grad` defaults to ones (a scalar loss gets 1). Gradients
 * ACCUMULATE into `.grad` of leaves with `requiresGrad` (call `zeroGrad`/`optimizer.zeroGrad()`
 * between steps). Leaf gradients are kept out of `tidy` scopes.
 * @throws Error when `root` does not require gradients or `grad` has the wrong shape.
 */
export function backward(root: Tensor, grad?: Tensor): void {
  if (!root.requiresGrad) throw new Error('compute: backward() on a tensor that does not require grad');
  if (grad && shapeSize(grad.shape) !== root.size) throw new Error('compute: backward() gradient shape mismatch');
  // Topological order (iterative DFS).
  const order: Tensor[] = [];
  const visited = new Set<Tensor>();
  const stack: [Tensor, number][] = [[root, 0]];
  visited.add(root);
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const node = top[0].gradNode;
    if (node && top[1] < node.inputs.length) {
      const child = node.inputs[top[1]++]!;
      if (child.requiresGrad && !visited.has(child)) {
        visited.add(child);
        stack.push([child, 0]);
      }
    } else {
      stack.pop();
      order.push(top[0]);
    }
  }
  const grads = new Map<Tensor, Tensor>();
  noGrad(() => {
    grads.set(root, grad ?? full(root.shape, 1, root.backend));
    for (let i = order.length - 1; i >= 0; i--) {
      const t = order[i]!;
      const g = grads.get(t);
      if (!g) continue;
      const node = t.gradNode;
      if (!node) {
        // Leaf: accumulate into .grad.
        if (t.grad) {
          accumulateInto(t.grad, g);
        } else {
          t.grad = keep(g.shape.length === t.shape.length ? cloneData(g) : cloneData(g).view(t.shape));
        }
        continue;
      }
      const ig = node.backward(g);
      for (let j = 0; j < node.inputs.length; j++) {
        const inp = node.inputs[j]!;
        const gi = ig[j];
        if (!gi || !inp.requiresGrad) continue;
        const prev = grads.get(inp);
        if (!prev) grads.set(inp, gi);
        else {
          // Never mutate a gradient that may alias another: allocate the sum.
          const s = cloneData(prev);
          accumulateInto(s, gi);
          grads.set(inp, s);
        }
      }
    }
  });
}

setBackwardHook(backward);

/** Clears `.grad` of the given tensors (disposing the old gradients). */
export function zeroGrad(params: Iterable<Tensor>): void {
  for (const p of params) {
    if (p.grad) {
      p.grad.dispose();
      p.grad = null;
    }
  }
}

/**
 * Gradients of `output` (a scalar) w.r.t. `inputs`, returned instead of accumulated into `.grad`
 * (previous `.grad` values are preserved). Inputs must require grad.
 */
export function grad(output: Tensor, inputs: readonly Tensor[]): Tensor[] {
  const saved = inputs.map((t) => t.grad);
  for (const t of inputs) t.grad = null;
  backward(output);
  const res = inputs.map((t) => t.grad ?? full(t.shape, 0, t.backend));
  inputs.forEach((t, i) => (t.grad = saved[i] ?? null));
  return res;
}

/** A tensor sharing data with `t` but cut from the graph (no grad). */
export function detach(t: Tensor): Tensor {
  return t.view(t.shape);
}

export { Tensor };
