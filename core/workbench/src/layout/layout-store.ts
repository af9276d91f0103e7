/**
 * Saved dock layouts: one document per user and route in local storage, with a
 * `schemaVersion` and named migration steps (STYLE 9). A document that cannot be read,
 * migrated or validated is reported as `invalid` so that the caller falls back to the default
 * layout and says so.
 */
import type { SerializedDockview } from 'dockview';

/** Current version of {@link LayoutDocument}. */
export const LAYOUT_SCHEMA_VERSION = 3;

/** What is saved. */
export interface LayoutDocument {
  schemaVersion: typeof LAYOUT_SCHEMA_VERSION;
  /** The route (layout) this belongs to, e.g. `/dashboard`. */
  layoutId: string;
  /** ISO date of the save. */
  savedAt: string;
  /** Dockview's own serialisation (`api.toJSON()`). */
  dockview: SerializedDockview;
}

/** One named step from version `from` to `from + 1`. */
export interface LayoutMigration {
  name: string;
  from: number;
  migrate(doc: Record<string, unknown>, layoutId: string): Record<string, unknown>;
}

/**
 * The migration history, oldest first. Never edit a published step; append a new one and
 * bump {@link LAYOUT_SCHEMA_VERSION}.
 * - v0: the raw `api.toJSON()` object (prototype builds saved it unwrapped).
 * - v1: `{schemaVersion: 1, dockview}`.
 * - v2: adds `layoutId` and `savedAt`.
 * - v3: the panels of the one `modelling` plugin carry the ids of the per-area plugins that
 *   replaced it (issue 16: {@link MODELLING_PANEL_RENAMES}).
 */
export const LAYOUT_MIGRATIONS: readonly LayoutMigration[] = [
  { name: 'wrap-raw-dockview', from: 0, migrate: (doc) => ({ schemaVersion: 1, dockview: doc }) },
  {
    name: 'add-layout-id-and-saved-at',
    from: 1,
    migrate: (doc, layoutId) => ({ ...doc, schemaVersion: 2, layoutId, savedAt: new Date(0).toISOString() }),
  },
  {
    name: 'rename-modelling-panels-per-area',
    from: 2,
    migrate: (doc) => ({ ...doc, schemaVersion: 3, dockview: renamePanels(doc.dockview, MODELLING_PANEL_RENAMES) }),
  },
];

/**
 * The panel ids of the `modelling` plugin (before the split into one plugin per area) and the
 * ids that replaced them: a layout saved with the old ids opens with the new ones (step
 * `rename-modelling-panels-per-area`). History: never edit, only add.
 */
export const MODELLING_PANEL_RENAMES: Readonly<Record<string, string>> = {
  'modelling.schemes': 'scheme.list',
  'modelling.environments': 'environment.list',
  'modelling.environmentTrain': 'environment.train',
  'modelling.debug': 'environment.debug',
  'modelling.rewards': 'reward.list',
  'modelling.policies': 'policy.list',
  'modelling.policyTrain': 'policy.train',
  'modelling.parameters': 'tuning.list',
  'modelling.parameterTrain': 'tuning.train',
  'modelling.simulations': 'deduction.simulations',
  'modelling.decisions': 'deduction.decisions',
  'modelling.hyperparameters': 'hyperparameters.sets',
  'modelling.projectLog': 'project-log.log',
};

/**
 * A dockview serialisation with panel ids renamed: the keys of `panels`, and every string that is
 * exactly an old id (a panel's `id` and `contentComponent`, the views and active view of the
 * grid's groups, the active panel). Titles and other text are left alone.
 */
export function renamePanels(dockview: unknown, renames: Readonly<Record<string, string>>): unknown {
  const walk = (x: unknown, key: string | null): unknown => {
    if (typeof x === 'string') return Object.prototype.hasOwnProperty.call(renames, x) ? renames[x] : x;
    if (Array.isArray(x)) return x.map((v) => walk(v, null));
    if (!isObject(x)) return x;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      // Only the keys of the `panels` map are ids; a panel's `title` is text.
      const name = key === 'panels' && Object.prototype.hasOwnProperty.call(renames, k) ? renames[k]! : k;
      out[name] = k === 'title' ? v : walk(v, k);
    }
    return out;
  };
  return walk(dockview, null);
}

/** Local-storage key of a layout: per user (by `userId`) and per route. */
export function layoutStorageKey(userId: string | null, layoutId: string): string {
  return `decisio.layout.${userId ?? 'anonymous'}.${layoutId}`;
}

/** Result of {@link readLayout}. */
export type LayoutReadResult =
  | { kind: 'none' }
  | { kind: 'ok'; doc: LayoutDocument; migratedBy: string[] }
  | { kind: 'invalid'; reason: string };

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Minimal structural check of a dockview serialisation; returns the panel component names. */
export function dockviewComponents(d: unknown): string[] | null {
  if (!isObject(d) || !isObject(d.grid) || !isObject(d.panels)) return null;
  const names: string[] = [];
  for (const p of Object.values(d.panels)) {
    if (!isObject(p) || typeof p.id !== 'string') return null;
    names.push(typeof p.contentComponent === 'string' ? p.contentComponent : p.id);
  }
  return names;
}

/**
 * Parses and migrates a stored text.
 * @param knownPanels when given, a layout naming another panel is `invalid`.
 */
export function parseLayout(text: string, layoutId: string, knownPanels?: ReadonlySet<string>): LayoutReadResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  if (!isObject(doc)) return { kind: 'invalid', reason: 'not an object' };
  let version = typeof doc.schemaVersion === 'number' ? doc.schemaVersion : 0;
  if (version > LAYOUT_SCHEMA_VERSION) return { kind: 'invalid', reason: `schemaVersion ${version} is newer than ${LAYOUT_SCHEMA_VERSION}` };
  const migratedBy: string[] = [];
  let current: Record<string, unknown> = doc;
  while (version < LAYOUT_SCHEMA_VERSION) {
    const step = LAYOUT_MIGRATIONS.find((m) => m.from === version);
    if (!step) return { kind: 'invalid', reason: `no migration from schemaVersion ${version}` };
    try {
      current = step.migrate(current, layoutId);
    } catch (e) {
      return { kind: 'invalid', reason: `migration ${step.name} failed: ${String(e)}` };
    }
    migratedBy.push(step.name);
    version += 1;
  }
  const names = dockviewComponents(current.dockview);
  if (!names) return { kind: 'invalid', reason: 'not a dock layout' };
  if (names.length === 0) return { kind: 'invalid', reason: 'no panels' };
  if (knownPanels) {
    const unknown = names.filter((n) => !knownPanels.has(n));
    if (unknown.length) return { kind: 'invalid', reason: `unknown panels: ${unknown.join(', ')}` };
  }
  return { kind: 'ok', doc: current as unknown as LayoutDocument, migratedBy };
}

/** Reads the saved layout of a user and route. */
export function readLayout(
  storage: Pick<Storage, 'getItem'>,
  userId: string | null,
  layoutId: string,
  knownPanels?: ReadonlySet<string>,
): LayoutReadResult {
  const text = storage.getItem(layoutStorageKey(userId, layoutId));
  if (text === null) return { kind: 'none' };
  return parseLayout(text, layoutId, knownPanels);
}

/** Saves a layout (current schema version). */
export function writeLayout(
  storage: Pick<Storage, 'setItem'>,
  userId: string | null,
  layoutId: string,
  dockview: SerializedDockview,
  now: Date = new Date(),
): LayoutDocument {
  const doc: LayoutDocument = { schemaVersion: LAYOUT_SCHEMA_VERSION, layoutId, savedAt: now.toISOString(), dockview };
  storage.setItem(layoutStorageKey(userId, layoutId), JSON.stringify(doc));
  return doc;
}

/** Forgets a saved layout. */
export function clearLayout(storage: Pick<Storage, 'removeItem'>, userId: string | null, layoutId: string): void {
  storage.removeItem(layoutStorageKey(userId, layoutId));
}
