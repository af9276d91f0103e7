/**
 * ONNX export of MLP policies, with a hand-written protobuf encoder (no dependencies).
 * Graph: one `Gemm` per layer (weights as initializers, W stored [in, out], transB = 0)
 * followed by the activation (`Relu`, `LeakyRelu`, `Tanh`, `Sigmoid`, or `Sigmoid`+`Mul` for
 * SiLU), optionally the first columns clipped to [-1, 1] (`clipColumns`). Opset 17, IR version 8. Input [batch, in] float32, output [batch, out] float32, with
 * caller-chosen names; the batch dimension is symbolic ("batch").
 */
import type { Activation } from '../backends/backend.ts';
import type { Tensor } from '../tensor.ts';

// ------------------------------------------------------------------------------------------------
// Minimal protobuf writer
// ------------------------------------------------------------------------------------------------

class PbWriter {
  private chunks: number[] = [];
  private bins: Uint8Array[] = [];

  private flush(): void {
    if (this.chunks.length) {
      this.bins.push(Uint8Array.from(this.chunks));
      this.chunks = [];
    }
  }

  varint(v: number | bigint): this {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.chunks.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.chunks.push(Number(x));
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }

  int(field: number, v: number): this {
    return this.tag(field, 0).varint(v);
  }

  float(field: number, v: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.flush();
    this.bins.push(b);
    return this;
  }

  bytes(field: number, b: Uint8Array): this {
    this.tag(field, 2).varint(b.length);
    this.flush();
    this.bins.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  message(field: number, build: (w: PbWriter) => void): this {
    const w = new PbWriter();
    build(w);
    return this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    this.flush();
    let n = 0;
    for (const b of this.bins) n += b.length;
    const out = new Uint8Array(n);
    let o = 0;
    for (const b of this.bins) {
      out.set(b, o);
      o += b.length;
    }
    return out;
  }
}

const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_FLOAT = 1;
const ATTR_INT = 2;

interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: { name: string; f?: number; i?: number }[];
}

function writeNode(w: PbWriter, n: OnnxNode, idx: number): void {
  w.message(1, (m) => {
    for (const i of n.inputs) m.string(1, i);
    for (const o of n.outputs) m.string(2, o);
    m.string(3, `${n.op}_${idx}`);
    m.string(4, n.op);
    for (const a of n.attrs ?? []) {
      m.message(5, (am) => {
        am.string(1, a.name);
        if (a.f !== undefined) am.float(2, a.f).int(20, ATTR_FLOAT);
        else am.int(3, a.i ?? 0).int(20, ATTR_INT);
      });
    }
  });
}

const INT64 = 7; // TensorProto.DataType.INT64

function writeInt64Initializer(w: PbWriter, name: string, values: readonly number[]): void {
  w.message(5, (t) => {
    t.int(1, values.length);
    t.int(2, INT64);
    t.string(8, name);
    const raw = new Uint8Array(values.length * 8);
    const dv = new DataView(raw.buffer);
    values.forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
    t.bytes(9, raw);
  });
}

function writeInitializer(w: PbWriter, name: string, shape: readonly number[], data: Float32Array): void {
  w.message(5, (t) => {
    for (const d of shape) t.int(1, d);
    t.int(2, FLOAT);
    t.string(8, name);
    const raw = new Uint8Array(data.length * 4);
    const dv = new DataView(raw.buffer);
    for (let i = 0; i < data.length; i++) dv.setFloat32(i * 4, data[i]!, true);
    t.bytes(9, raw);
  });
}

function writeValueInfo(w: PbWriter, field: number, name: string, dims: (number | string)[]): void {
  w.message(field, (v) => {
    v.string(1, name);
    v.message(2, (tp) =>
      tp.message(1, (tt) => {
        tt.int(1, FLOAT);
        tt.message(2, (sh) => {
          for (const d of dims) sh.message(1, (dm) => (typeof d === 'number' ? dm.int(1, d) : dm.string(2, d)));
        });
      }),
    );
  });
}

// ------------------------------------------------------------------------------------------------

/** A dense layer as exported: W [in, out], b [out] (host data). */
export interface OnnxDenseLayer {
  weight: { shape: readonly number[]; data: Float32Array };
  bias: { shape: readonly number[]; data: Float32Array } | null;
  activation: Activation;
  /** Leaky-relu slope. */
  alpha?: number;
}

/** Options of {@link exportMlpOnnx}. */
export interface OnnxExportOptions {
  inputName?: string;
  outputName?: string;
  graphName?: string;
  producer?: string;
  /** Extra model metadata (ModelProto.metadata_props). */
  metadata?: Record<string, string>;
  /**
   * The first `clipColumns` output columns are clipped to [-1, 1] (`Slice`, `Clip`, `Concat`
   * after the last layer): a policy's continuous means, bounded as in training and serving.
   */
  clipColumns?: number;
}

/**
 * Encodes a chain of dense layers as an ONNX model.
 * @throws Error when consecutive layer shapes do not chain.
 */
export function encodeDenseOnnx(layers: readonly OnnxDenseLayer[], opts: OnnxExportOptions = {}): Uint8Array {
  if (layers.length === 0) throw new Error('compute: ONNX export of no layers');
  const inputName = opts.inputName ?? 'obs';
  const finalName = opts.outputName ?? 'action';
  const outDim = layers[layers.length - 1]!.weight.shape[1]!;
  const clip = Math.max(0, Math.min(outDim, Math.floor(opts.clipColumns ?? 0)));
  const outputName = clip > 0 ? `${finalName}_raw` : finalName;
  const nodes: OnnxNode[] = [];
  let cur = inputName;
  const inDim = layers[0]!.weight.shape[0]!;
  let prevOut = inDim;
  layers.forEach((l, i) => {
    const [din, dout] = l.weight.shape as [number, number];
    if (din !== prevOut) throw new Error(`compute: ONNX export: layer ${i} expects ${din} inputs, previous gives ${prevOut}`);
    prevOut = dout;
    const last = i === layers.length - 1;
    const gemmOut = last && l.activation === 'none' ? outputName : `h${i}_linear`;
    nodes.push({ op: 'Gemm', inputs: l.bias ? [cur, `layer${i}.weight`, `layer${i}.bias`] : [cur, `layer${i}.weight`], outputs: [gemmOut] });
    cur = gemmOut;
    if (l.activation !== 'none') {
      const actOut = last ? outputName : `h${i}`;
      switch (l.activation) {
        case 'relu': nodes.push({ op: 'Relu', inputs: [cur], outputs: [actOut] }); break;
        case 'tanh': nodes.push({ op: 'Tanh', inputs: [cur], outputs: [actOut] }); break;
        case 'sigmoid': nodes.push({ op: 'Sigmoid', inputs: [cur], outputs: [actOut] }); break;
        case 'leaky-relu': nodes.push({ op: 'LeakyRelu', inputs: [cur], outputs: [actOut], attrs: [{ name: 'alpha', f: l.alpha ?? 0.01 }] }); break;
        case 'silu':
          nodes.push({ op: 'Sigmoid', inputs: [cur], outputs: [`h${i}_sig`] });
          nodes.push({ op: 'Mul', inputs: [cur, `h${i}_sig`], outputs: [actOut] });
          break;
      }
      cur = actOut;
    }
  });
  if (clip > 0) {
    if (clip === outDim) nodes.push({ op: 'Clip', inputs: [outputName, 'clip.min', 'clip.max'], outputs: [finalName] });
    else {
      nodes.push({ op: 'Slice', inputs: [outputName, 'clip.start0', 'clip.end0', 'clip.axes'], outputs: [`${finalName}_head`] });
      nodes.push({ op: 'Clip', inputs: [`${finalName}_head`, 'clip.min', 'clip.max'], outputs: [`${finalName}_clipped`] });
      nodes.push({ op: 'Slice', inputs: [outputName, 'clip.end0', 'clip.end1', 'clip.axes'], outputs: [`${finalName}_rest`] });
      nodes.push({ op: 'Concat', inputs: [`${finalName}_clipped`, `${finalName}_rest`], outputs: [finalName], attrs: [{ name: 'axis', i: 1 }] });
    }
  }
  const w = new PbWriter();
  w.int(1, 8); // ir_version
  w.string(2, opts.producer ?? 'decisio-compute');
  w.string(3, '0.1.0');
  w.message(7, (g) => {
    nodes.forEach((n, i) => writeNode(g, n, i));
    g.string(2, opts.graphName ?? 'policy');
    layers.forEach((l, i) => {
      writeInitializer(g, `layer${i}.weight`, l.weight.shape, l.weight.data);
      if (l.bias) writeInitializer(g, `layer${i}.bias`, [l.bias.data.length], l.bias.data);
    });
    if (clip > 0) {
      writeInitializer(g, 'clip.min', [], Float32Array.of(-1));
      writeInitializer(g, 'clip.max', [], Float32Array.of(1));
      if (clip < outDim) {
        writeInt64Initializer(g, 'clip.start0', [0]);
        writeInt64Initializer(g, 'clip.end0', [clip]);
        writeInt64Initializer(g, 'clip.end1', [outDim]);
        writeInt64Initializer(g, 'clip.axes', [1]);
      }
    }
    writeValueInfo(g, 11, inputName, ['batch', inDim]);
    writeValueInfo(g, 12, finalName, ['batch', prevOut]);
  });
  w.message(8, (o) => o.string(1, '').int(2, 17)); // opset_import
  for (const [k, v] of Object.entries(opts.metadata ?? {})) w.message(14, (m) => m.string(1, k).string(2, v));
  return w.finish();
}

/** Structural type of an exportable MLP (nn `MLP` satisfies it). */
export interface ExportableMlp {
  layers: readonly { weight: Tensor; bias: Tensor | null; activation: Activation; alpha?: number }[];
}

/** Exports an nn `MLP` (any backend; weights are read back asynchronously). */
export async function exportMlpOnnx(mlp: ExportableMlp, opts: OnnxExportOptions = {}): Promise<Uint8Array> {
  const layers: OnnxDenseLayer[] = [];
  for (const l of mlp.layers) {
    layers.push({
      weight: { shape: [...l.weight.shape], data: await l.weight.data() },
      bias: l.bias ? { shape: [...l.bias.shape], data: await l.bias.data() } : null,
      activation: l.activation,
      ...(l.alpha !== undefined ? { alpha: l.alpha } : {}),
    });
  }
  return encodeDenseOnnx(layers, opts);
}
