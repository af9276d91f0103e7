/**
 * The industry templates the server's plugins contribute (`@decisio/sdk-plugin/server`,
 * `templates`): each with its data file (read once, lazily), its parsed graph, its reward and
 * its report renderer. No template is built into the server: the electric and coupon templates
 * are the plugins `plugins/template-electric` and `plugins/template-coupon`.
 */
import type { ServerPlugin, ServerTemplate, ServerTemplateTable } from '@decisio/sdk-plugin/server';
import type { TemplateItem, TemplateReport } from '@decisio/domain';
import { parsePlainCsv, readPluginFile } from '../../plugins/files';

/** Rows of the sample a template's list item shows. */
export const TEMPLATE_SAMPLE_ROWS = 8;

/** A template's data file, read and checked. */
export interface TemplateData {
  /** The file as written (uploaded as is into a template project). */
  csv: Buffer;
  table: ServerTemplateTable;
}

/** A template of a plugin, with its data read on first use. */
export interface RegisteredTemplate {
  pluginId: string;
  def: ServerTemplate;
}

function tableOf(pluginId: string, def: ServerTemplate, text: string): ServerTemplateTable {
  const source = `plugin "${pluginId}", template "${def.id}" (${def.data.file.pathname.split('/').pop()})`;
  const { columns, rows } = parsePlainCsv(text, source);
  const keys = [def.data.trajectoryField, def.data.sequenceField, def.data.datetimeField];
  const graphColumns = def.graphDocument.nodes.flatMap((n) => n.fields.map((f) => f.name));
  for (const c of [...keys, ...graphColumns]) if (!columns.includes(c)) throw new Error(`${source}: no column "${c}"`);
  if (rows.length === 0) throw new Error(`${source}: no rows`);
  const traj = columns.indexOf(def.data.trajectoryField);
  const trajectories: ServerTemplateTable['trajectories'] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const id = row[traj]!;
    const last = trajectories[trajectories.length - 1];
    if (last && last.id === id) {
      last.end = i + 1;
      return;
    }
    if (seen.has(id)) throw new Error(`${source}: the rows of trajectory ${id} are not together`);
    seen.add(id);
    trajectories.push({ id, start: i, end: i + 1 });
  });
  return {
    columns,
    rows,
    trajectories,
    numbers(column) {
      const i = columns.indexOf(column);
      if (i < 0) throw new Error(`${source}: no column "${column}"`);
      return rows.map((r) => (r[i] === '' ? NaN : Number(r[i])));
    },
  };
}

/** The templates of the loaded plugins, by id. */
export class TemplateRegistry {
  private readonly templates = new Map<string, RegisteredTemplate>();
  private readonly data = new Map<string, Promise<TemplateData>>();
  private readonly reports = new Map<string, TemplateReport | null>();

  /**
   * Collects the templates of `plugins`, in plugin order.
   * @throws Error when two plugins contribute the same template id.
   */
  constructor(plugins: readonly ServerPlugin[]) {
    for (const p of plugins) {
      for (const def of p.templates ?? []) {
        const other = this.templates.get(def.id);
        if (other) throw new Error(`Template "${def.id}" is contributed by both "${other.pluginId}" and "${p.id}"`);
        this.templates.set(def.id, { pluginId: p.id, def });
      }
    }
  }

  /** Every template, in plugin order. */
  all(): RegisteredTemplate[] {
    return [...this.templates.values()];
  }

  get(id: string): RegisteredTemplate | undefined {
    return this.templates.get(id);
  }

  /**
   * The template's data file, read and checked once (key and graph columns present, rows of a
   * trajectory together, as many cells as columns).
   * @throws Error when the file cannot be read or fails a check.
   */
  dataOf(id: string): Promise<TemplateData> {
    const t = this.templates.get(id);
    if (!t) return Promise.reject(new Error(`No template "${id}"`));
    let p = this.data.get(id);
    if (!p) {
      p = readPluginFile(t.def.data.file).then((csv) => ({ csv, table: tableOf(t.pluginId, t.def, csv.toString('utf8')) }));
      // A failed read is tried again next time.
      p.catch(() => this.data.delete(id));
      this.data.set(id, p);
    }
    return p;
  }

  /**
   * What the template's report renderer measured on its data (once per process); `null` without
   * a renderer.
   * @throws Error when a figure is not a finite number.
   */
  async reportOf(id: string): Promise<TemplateReport | null> {
    if (this.reports.has(id)) return this.reports.get(id)!;
    const t = this.templates.get(id)!;
    let report: TemplateReport | null = null;
    if (t.def.report) {
      report = t.def.report((await this.dataOf(id)).table);
      for (const f of report.figures) {
        if (!Number.isFinite(f.value)) throw new Error(`Template "${id}": report figure "${f.id}" is not a finite number`);
      }
    }
    this.reports.set(id, report);
    return report;
  }

  /** The list item of `template/getTemplateList`. */
  async present(id: string): Promise<TemplateItem> {
    const { pluginId, def } = this.templates.get(id)!;
    const { table } = await this.dataOf(id);
    const steps = Math.max(...table.trajectories.map((t) => t.end - t.start));
    return {
      id: def.id,
      industry: def.industry,
      industryName: def.industryName,
      plugin: pluginId,
      name: def.name,
      description: def.description,
      task: def.task ?? pluginId,
      colour: def.colour,
      trajectories: table.trajectories.length,
      steps,
      rows: table.rows.length,
      columns: table.columns,
      trajectoryField: def.data.trajectoryField,
      sequenceField: def.data.sequenceField,
      datetimeField: def.data.datetimeField,
      nodes: def.graphDocument.nodes.map((n) => n.name),
      agent: def.agent,
      decisionFields: [...def.decisionFields],
      sample: { columns: table.columns, rows: table.rows.slice(0, TEMPLATE_SAMPLE_ROWS) },
      report: await this.reportOf(id),
    };
  }
}
