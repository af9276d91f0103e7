/**
 * Orders plugins so that every plugin activates after the providers of the services it
 * requires (and of the optional ones that are present). Fails loudly, with the names
 * involved, on a duplicate plugin id, two providers of one service, a required service that
 * nobody provides, and a dependency cycle.
 */
import type { PluginManifest } from '@decisio/sdk-plugin';

/** Why the host refused a set of plugins. */
export type PluginHostErrorKind =
  | 'duplicate-id'
  | 'duplicate-provider'
  | 'missing-provider'
  | 'cycle'
  | 'duplicate-contribution'
  | 'provide-mismatch'
  | 'activation-failed';

/** A refusal of the plugin host; `kind` says which rule was broken, `message` names the plugins. */
export class PluginHostError extends Error {
  readonly kind: PluginHostErrorKind;
  constructor(kind: PluginHostErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PluginHostError';
    this.kind = kind;
  }
}

/**
 * Returns the plugins in activation order (stable: input order where the dependencies allow).
 *
 * @param hostServices ids of services the host itself provides (always available).
 * @throws PluginHostError `duplicate-id`, `duplicate-provider`, `missing-provider` or `cycle`.
 */
export function orderPlugins(
  plugins: readonly PluginManifest[],
  hostServices: ReadonlySet<string> = new Set(),
): PluginManifest[] {
  const byId = new Map<string, PluginManifest>();
  for (const p of plugins) {
    if (byId.has(p.id)) throw new PluginHostError('duplicate-id', `two plugins have the id "${p.id}"`);
    byId.set(p.id, p);
  }
  const provider = new Map<string, string>();
  for (const p of plugins) {
    for (const ref of p.provides ?? []) {
      if (hostServices.has(ref.id)) {
        throw new PluginHostError('duplicate-provider', `plugin "${p.id}" provides "${ref.id}", which the workbench already provides`);
      }
      const other = provider.get(ref.id);
      if (other) {
        throw new PluginHostError('duplicate-provider', `service "${ref.id}" is provided by both "${other}" and "${p.id}"`);
      }
      provider.set(ref.id, p.id);
    }
  }
  const deps = new Map<string, string[]>();
  for (const p of plugins) {
    const list: string[] = [];
    for (const ref of p.requires ?? []) {
      if (hostServices.has(ref.id)) continue;
      const by = provider.get(ref.id);
      if (!by) {
        throw new PluginHostError('missing-provider', `plugin "${p.id}" requires "${ref.id}", but no plugin provides it`);
      }
      if (by !== p.id) list.push(by);
    }
    for (const ref of p.optional ?? []) {
      const by = provider.get(ref.id);
      if (by && by !== p.id) list.push(by);
    }
    deps.set(p.id, list);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const out: PluginManifest[] = [];
  const stack: string[] = [];
  const visit = (id: string) => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...stack.slice(stack.indexOf(id)), id];
      throw new PluginHostError('cycle', `plugin dependency cycle: ${cycle.join(' -> ')}`);
    }
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of deps.get(id) ?? []) visit(d);
    stack.pop();
    state.set(id, 'done');
    out.push(byId.get(id)!);
  };
  for (const p of plugins) visit(p.id);
  return out;
}
