/**
 * What the storehouse knows of a template: its table's fields with the value types and ranges
 * of the template's own data, its graph, reward and default names. Read from the industry
 * templates the server's plugins contribute (the template module's registry, `TemplateSource`
 * below is the part of it the storehouse reads): a template added by a plugin is in the
 * storehouse too.
 */
import type { Locale, StorehouseField, StorehouseTemplate, StorehouseTemplateType, StorehouseValueType, TagColour } from '@decisio/domain';

type Text = Record<Locale, string>;

/** The parts of a plugin's template the storehouse reads (`ServerTemplate` of `@decisio/sdk-plugin/server`). */
export interface SourceTemplate {
  readonly id: string;
  readonly industry: string;
  readonly industryName: Text;
  readonly name: Text;
  readonly description: Text;
  readonly projectName: Text;
  readonly solutionName: Text;
  readonly datasetName: Text;
  readonly rewardName: Text;
  readonly rewardDescription: Text;
  readonly colour: TagColour;
  readonly data: { readonly trajectoryField: string; readonly sequenceField: string; readonly datetimeField: string };
  readonly graphDocument: { readonly nodes: readonly { readonly name: string; readonly role: string; readonly fields: readonly { readonly name: string }[] }[] };
  readonly agent: string;
  readonly reward: string;
}

/** The templates of the server's plugins and their data (the template module's `TemplateRegistry`). */
export interface TemplateSource {
  all(): readonly { pluginId: string; def: SourceTemplate }[];
  dataOf(id: string): Promise<{ table: { readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] } }>;
}

/** A template as the storehouse uses it. */
export interface CatalogueTemplate extends StorehouseTemplate {
  def: SourceTemplate;
}

/** Value types, ranges and distinct counts of every column of the template's table. */
export function fieldsOf(def: SourceTemplate, table: { readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] }): StorehouseField[] {
  const nodeOf = new Map<string, string>();
  for (const n of def.graphDocument.nodes) for (const f of n.fields) if (!nodeOf.has(f.name)) nodeOf.set(f.name, n.name);
  const { trajectoryField, sequenceField, datetimeField } = def.data;
  return table.columns.map((name, i): StorehouseField => {
    const role = name === trajectoryField ? 'trajectory' : name === sequenceField ? 'sequence' : name === datetimeField ? 'datetime' : 'field';
    const values = table.rows.map((r) => r[i] ?? '');
    const distinct = new Set(values).size;
    const node = nodeOf.get(name) ?? null;
    const required = role !== 'field' || node !== null;
    if (role === 'datetime') return { name, role, node: null, valueType: 'datetime', min: null, max: null, distinct, decision: false, required };
    const numbers = values.filter((v) => v !== '').map(Number);
    if (numbers.length === 0 || numbers.some((v) => !Number.isFinite(v))) return { name, role, node, valueType: 'text', min: null, max: null, distinct, decision: node === def.agent, required };
    let min = Infinity;
    let max = -Infinity;
    for (const v of numbers) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const valueType: StorehouseValueType = numbers.every(Number.isInteger) ? 'integer' : 'number';
    return { name, role, node, valueType, min, max, distinct, decision: node === def.agent, required };
  });
}

/**
 * The storehouse's view of the plugins' templates: a template's fields are measured on its data
 * once per process (the data file is the plugin's, fixed), only the table's key columns and the
 * graph's fields count, with the `next_` columns of graph fields as optional ones (other columns
 * of the file are not the template's).
 */
export class StorehouseCatalogue {
  private readonly fields = new Map<string, Promise<StorehouseField[]>>();

  constructor(private readonly source: TemplateSource) {}

  private fieldsOf(def: SourceTemplate): Promise<StorehouseField[]> {
    let p = this.fields.get(def.id);
    if (!p) {
      const graphFields = new Set(def.graphDocument.nodes.flatMap((n) => n.fields.map((f) => f.name)));
      const keys = new Set([def.data.trajectoryField, def.data.sequenceField, def.data.datetimeField]);
      // The key columns, the graph's fields, and the `next_` columns of graph fields (optional).
      p = this.source.dataOf(def.id).then(({ table }) =>
        fieldsOf(def, table).filter((f) => keys.has(f.name) || graphFields.has(f.name) || (f.name.startsWith('next_') && graphFields.has(f.name.slice(5)))),
      );
      p.catch(() => this.fields.delete(def.id));
      this.fields.set(def.id, p);
    }
    return p;
  }

  /** Every template, in plugin order. */
  async all(): Promise<CatalogueTemplate[]> {
    return Promise.all(
      this.source.all().map(async ({ pluginId, def }) => ({
        templateId: def.id,
        type: def.industry,
        plugin: pluginId,
        name: def.name,
        description: def.description,
        colour: def.colour,
        rows: (await this.source.dataOf(def.id)).table.rows.length,
        nodes: def.graphDocument.nodes.map((n) => n.name),
        agent: def.agent,
        fields: await this.fieldsOf(def),
        def,
      })),
    );
  }

  async get(id: string): Promise<CatalogueTemplate | undefined> {
    return (await this.all()).find((t) => t.templateId === id);
  }

  /** The industries with their names and template counts, in the order their first template comes. */
  types(): StorehouseTemplateType[] {
    const out = new Map<string, StorehouseTemplateType>();
    for (const { def } of this.source.all()) {
      const t = out.get(def.industry) ?? { type: def.industry, name: def.industryName, count: 0 };
      t.count += 1;
      out.set(def.industry, t);
    }
    return [...out.values()];
  }
}

/** The public view of a template. */
export function presentStorehouseTemplate(t: CatalogueTemplate): StorehouseTemplate {
  const { def: _def, ...rest } = t;
  return rest;
}
