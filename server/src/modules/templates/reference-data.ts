/**
 * How the data files of the electric and coupon template plugins (`plugins/template-electric/
 * data/electric.csv`, `plugins/template-coupon/data/coupon.csv`) were made from the learning
 * engine's reference tasks: each task's behaviour policy in its true simulator, 20 trajectories
 * from seed 2026, written as CSV. The server does not read this module: the templates are the
 * plugins'. The tests check the files against it, and `npx tsx server/scripts/template-data.ts`
 * writes them again.
 */
import { inventoryTask, thermalTask, type OfflineData, type ReferenceTask } from '@decisio/learning';

/** One column of a template's table: a graph field, or the trajectory / sequence / datetime key. */
interface TemplateColumn {
  name: string;
  /** Node of the offline data and index in its row (`undefined` for the key columns). */
  node?: string;
  dim?: number;
  /** Decimals written to the CSV. */
  digits?: number;
}

/** The data recipe of a template plugin. */
export interface ReferenceDataDef {
  /** Template id (and the plugin folder `plugins/template-<id>`). */
  id: 'electric' | 'coupon';
  task: ReferenceTask;
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string;
  /** Start of every trajectory and the time between two steps. */
  start: Date;
  stepMs: number;
  trajectories: number;
  steps: number;
  seed: number;
  columns: TemplateColumn[];
}

const MINUTE = 60_000;

function field(name: string, node: string, digits: number, dim = 0): TemplateColumn {
  return { name, node, dim, digits };
}

type Spec = Pick<ReferenceDataDef, 'id' | 'task' | 'stepMs' | 'steps'> & { keys: [string, string, string]; fields: TemplateColumn[] };

function recipe({ keys, fields, ...spec }: Spec): ReferenceDataDef {
  const [trajectoryField, sequenceField, datetimeField] = keys;
  const columns = [...keys.map((name) => ({ name })), ...fields];
  return { ...spec, trajectoryField, sequenceField, datetimeField, columns, start: new Date('2026-01-01T00:00:00Z'), trajectories: 20, seed: 2026 };
}

export const REFERENCE_DATA_DEFS: readonly ReferenceDataDef[] = [
  recipe({
    id: 'electric',
    task: thermalTask,
    keys: ['room', 'step', 'time'],
    stepMs: 15 * MINUTE,
    steps: 200,
    fields: [field('obs_temp', 'temperature', 4), field('factor_door_state', 'door_open', 0), field('power_action', 'action', 4), field('next_obs_temp', 'next_temperature', 4)],
  }),
  recipe({
    id: 'coupon',
    task: inventoryTask,
    keys: ['store', 'period', 'date'],
    stepMs: 24 * 60 * MINUTE,
    steps: 100,
    fields: [
      field('stock_level', 'stock', 0),
      field('season_index', 'season', 4),
      field('price', 'decision', 0),
      field('order_quantity', 'decision', 0, 1),
      field('units_sold', 'sales', 0),
      field('next_stock_level', 'next_stock', 0),
    ],
  }),
];

/** A recipe by template id, or `undefined`. */
export function referenceDataDef(id: string): ReferenceDataDef | undefined {
  return REFERENCE_DATA_DEFS.find((t) => t.id === id);
}

/** The template's offline data (deterministic: same seed, same data). */
export function templateData(def: ReferenceDataDef): OfflineData {
  return def.task.generate({ trajectories: def.trajectories, steps: def.steps, seed: def.seed });
}

/**
 * The template's table as CSV: one row per step with the trajectory (1-based), the step within
 * it, its datetime (ISO, UTC) and every field of the graph, `next_` fields included.
 */
export function templateCsv(def: ReferenceDataDef, data: OfflineData = templateData(def)): string {
  const lines = [def.columns.map((c) => c.name).join(',')];
  let begin = 0;
  data.index.forEach((end, traj) => {
    for (let row = begin; row < end; row++) {
      const step = row - begin;
      const cells = def.columns.map((c) => {
        if (c.name === def.trajectoryField) return String(traj + 1);
        if (c.name === def.sequenceField) return String(step);
        if (c.name === def.datetimeField) return new Date(def.start.getTime() + step * def.stepMs).toISOString();
        const a = data.arrays[c.node!];
        if (!a) throw new Error(`template ${def.id}: no data for node ${c.node}`);
        const width = a.shape[1]!;
        const v = Number(a.data[row * width + c.dim!]);
        return (c.digits ?? 4) === 0 ? String(Math.round(v)) : v.toFixed(c.digits);
      });
      lines.push(cells.join(','));
    }
    begin = end;
  });
  return lines.join('\n') + '\n';
}
