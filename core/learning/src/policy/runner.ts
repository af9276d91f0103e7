/**
 * Trained policy export and inference. A policy bundle is:
 * - `policy.weights`: the compute core's weights format (every head's parameters, named
 *   `node/param`) with the bundle manifest (codecs, agent inputs, hidden sizes) in metadata;
 * - `policy.json`: the same manifest, readable without the weights;
 * - `policy.onnx` (one agent node): the head's MLP via the compute core's ONNX export, input
 *   `obs` = the agent inputs encoded and concatenated, output = the head's raw outputs (the
 *   first columns are the means of continuous fields, clipped to the codec's [-1, 1] space for
 *   `squash: 'clip'`; the manifest says how to decode them).
 * {@link PolicyRunner} maps input node arrays in original units to output node arrays in
 * original units (deterministic: mean / most likely class).
 */
import { FrozenMLP, Generator, decodeWeights, encodeWeights, exportMlpOnnx, type WeightEntry } from '@decisio/compute';
import { decodeRows, encodeRows, type NodeCodec } from '../data/codec';
import { Rng } from '../data/split';
import type { StepValues, TaskPolicy } from '../tasks/common';
import { AgentPolicy } from './agent-policy';

/** What a bundle needs besides weights. */
export interface PolicyManifest {
  format: 'decisio.policy';
  version: 1;
  /** Training algorithm (`ppo`, `sac`, ...). */
  algorithm: string;
  hidden: number[];
  agents: Array<{ name: string; inputs: string[] }>;
  /** Codecs of every agent node and agent input (fit masks as arrays). */
  codecs: Record<string, Omit<NodeCodec, 'fitMask'> & { fitMask: number[] }>;
  /** How continuous outputs become actions: `'clip'` (PPO) or `'tanh'` (SAC). */
  squash: 'clip' | 'tanh';
}

/** Files of a policy bundle by name. */
export type PolicyFiles = Record<string, Uint8Array>;

/** Builds the manifest of a trained policy. */
export function policyManifest(policy: AgentPolicy, algorithm: string, squash: 'clip' | 'tanh' = 'clip'): PolicyManifest {
  const codecs: PolicyManifest['codecs'] = {};
  const agents: PolicyManifest['agents'] = [];
  for (const h of policy.heads.values()) {
    agents.push({ name: h.name, inputs: [...h.inputs] });
    for (const n of [h.name, ...h.inputs]) {
      const c = policy.codecs[n]!;
      codecs[n] = { ...c, fitMask: Array.from(c.fitMask) };
    }
  }
  return { format: 'decisio.policy', version: 1, algorithm, hidden: [...policy.hidden], agents, codecs, squash };
}

function codecsOf(m: PolicyManifest): Record<string, NodeCodec> {
  return Object.fromEntries(Object.entries(m.codecs).map(([k, c]) => [k, { ...c, fitMask: Uint8Array.from(c.fitMask) }]));
}

/**
 * Serialises a policy: `policy.weights`, `policy.json` and, for a single agent node,
 * `policy.onnx`.
 */
export async function savePolicy(policy: AgentPolicy, algorithm: string, squash: 'clip' | 'tanh' = 'clip'): Promise<PolicyFiles> {
  const manifest = policyManifest(policy, algorithm, squash);
  const entries: Array<[string, WeightEntry]> = [];
  for (const [k, t] of policy.namedParameters()) entries.push([k, { shape: [...t.shape], data: await t.data() }]);
  const files: PolicyFiles = {
    'policy.weights': encodeWeights(entries, { manifest: JSON.stringify(manifest) }),
    'policy.json': new TextEncoder().encode(JSON.stringify(manifest, null, 2)),
  };
  if (policy.heads.size === 1) {
    const h = [...policy.heads.values()][0]!;
    // PPO's continuous means are bounded to the codec's [-1, 1] as in training and serving (SAC's
    // pass through tanh, which the manifest's `squash` tells the consumer to apply).
    const clip = squash === 'clip' ? { clipColumns: h.cont.length } : {};
    files['policy.onnx'] = await exportMlpOnnx(h.net, { inputName: 'obs', outputName: 'action', graphName: h.name, metadata: { manifest: JSON.stringify(manifest) }, ...clip });
  }
  return files;
}

/** Loads a policy from `policy.weights` (the manifest travels in its metadata). */
export function loadPolicy(weights: Uint8Array): { policy: AgentPolicy; manifest: PolicyManifest } {
  const f = decodeWeights(weights);
  const text = f.metadata['manifest'];
  if (!text) throw new Error('policy: weights file without a policy manifest');
  const manifest = JSON.parse(text) as PolicyManifest;
  if (manifest.format !== 'decisio.policy') throw new Error('policy: not a Decisio policy bundle');
  const policy = new AgentPolicy(codecsOf(manifest), manifest.agents, manifest.hidden, new Generator(0));
  policy.loadWeights(new Map([...f.tensors].map(([k, e]) => [k, e.data])));
  return { policy, manifest };
}

/** Options of {@link PolicyRunner}. */
export interface PolicyRunnerOptions {
  /**
   * Snapshot the heads' weights into {@link FrozenMLP}s and run those (no tensors per call, the
   * fast path of serving). Later training of the policy does not reach a frozen runner.
   */
  frozen?: boolean;
}

/** Runs a trained policy on original-unit inputs (see the module comment). */
export class PolicyRunner {
  private readonly rng = new Rng(0);
  private readonly frozen: Map<string, FrozenMLP> | null;

  constructor(
    readonly policy: AgentPolicy,
    readonly squash: 'clip' | 'tanh' = 'clip',
    options: PolicyRunnerOptions = {},
  ) {
    this.frozen = options.frozen ? new Map([...policy.heads.values()].map((h) => [h.name, FrozenMLP.from(h.net)])) : null;
  }

  /** From `policy.weights` bytes (frozen: loaded weights do not change). */
  static fromWeights(bytes: Uint8Array): PolicyRunner {
    const { policy, manifest } = loadPolicy(bytes);
    return new PolicyRunner(policy, manifest.squash, { frozen: true });
  }

  /** Input node names the runner needs (agent inputs that are not agents themselves). */
  get inputNames(): string[] {
    const agents = new Set(this.policy.heads.keys());
    const out = new Set<string>();
    for (const h of this.policy.heads.values()) for (const i of h.inputs) if (!agents.has(i)) out.add(i);
    return [...out];
  }

  /** Output node names. */
  get outputNames(): string[] {
    return [...this.policy.heads.keys()];
  }

  /**
   * Decides every agent node for `rows` rows. `inputs`: node -> flat `[rows * dim]` original
   * units. Returns node -> flat `[rows * dim]` original units.
   * @throws Error on a missing input or a wrong length.
   */
  run(inputs: Record<string, ArrayLike<number>>, rows: number): Record<string, Float32Array> {
    const enc: Record<string, Float32Array> = {};
    for (const name of this.inputNames) {
      const v = inputs[name];
      const codec = this.policy.codecs[name]!;
      if (!v) throw new Error(`policy: missing input node '${name}'`);
      if (v.length !== rows * codec.dim) throw new Error(`policy: input '${name}' has ${v.length} values, expected ${rows} x ${codec.dim}`);
      enc[name] = encodeRows(codec, v, rows);
    }
    const out: Record<string, Float32Array> = {};
    // heads in dependency order: an agent that reads another agent runs after it
    const pending = [...this.policy.heads.values()];
    while (pending.length) {
      const i = pending.findIndex((h) => h.inputs.every((n) => enc[n]));
      if (i < 0) throw new Error('policy: agent inputs cannot be resolved');
      const h = pending.splice(i, 1)[0]!;
      const x = this.policy.inputOf(h, enc, rows);
      const net = this.frozen?.get(h.name);
      const a = net ? h.actFrom(net.forward(x, rows), rows, 'mode', this.rng) : h.act(x, rows, 'mode', this.rng);
      if (this.squash === 'tanh') {
        const C = h.cont.length;
        for (let r = 0; r < rows; r++) for (let c = 0; c < C; c++) a.enc[r * h.codec.width + h.cont[c]!] = Math.tanh(a.cont[r * C + c]!);
      }
      enc[h.name] = a.enc;
      out[h.name] = decodeRows(h.codec, a.enc, rows);
    }
    return out;
  }

  /** As a reference task's policy (one row). */
  asTaskPolicy(): TaskPolicy {
    return (inputs: StepValues) => {
      const r = this.run(inputs, 1);
      return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.from(v)]));
    };
  }
}
