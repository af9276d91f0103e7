/**
 * What the storehouse knows of a template: its table's fields with the value types and ranges
 * of the template's own data, its graph, reward and default names. Read from the industry
 * templates (`../templates/templates`, the template service's definitions): this file is the only
 * place that reads them, so the storehouse follows them wherever the templates move.
 */
import type { IndustryTemplate, Locale, StorehouseField, StorehouseTemplate, StorehouseTemplateType, StorehouseValueType } from '@decisio/domain';
import { INDUSTRY_TEMPLATE_DEFS, templateCsv, type IndustryTemplateDef } from '../templates/templates';

/** A template as the storehouse uses it. */
export interface CatalogueTemplate extends StorehouseTemplate {
  projectName: Record<Locale, string>;
  solutionName: Record<Locale, string>;
  datasetName: Record<Locale, string>;
  rewardName: Record<Locale, string>;
  rewardDescription: Record<Locale, string>;
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string;
  /** The decision graph document (REVIVE graph of the template's task). */
  graph(): unknown;
  rewardPy: string;
}

/** The industries (one template each today). */
const TYPE_NAMES: Record<IndustryTemplate, Record<Locale, string>> = {
  electric: { 'zh-CN': '电力', 'en-US': 'Electric power' },
  coupon: { 'zh-CN': '零售优惠券', 'en-US': 'Retail coupons' },
};

/** Value types, ranges and distinct counts of every column of the template's CSV. */
function fieldsOf(def: IndustryTemplateDef): StorehouseField[] {
  const lines = templateCsv(def).trimEnd().split('\n');
  const header = lines[0]!.split(',');
  const cells = lines.slice(1).map((l) => l.split(','));
  const agent = def.task.agent;
  return header.map((name, i) => {
    const column = def.columns.find((c) => c.name === name);
    const role = name === def.trajectoryField ? 'trajectory' : name === def.sequenceField ? 'sequence' : name === def.datetimeField ? 'datetime' : 'field';
    const values = cells.map((r) => r[i]!);
    const distinct = new Set(values).size;
    if (role === 'datetime') return { name, role, node: null, valueType: 'datetime', min: null, max: null, distinct, decision: false };
    const numbers = values.map(Number);
    let min = Infinity;
    let max = -Infinity;
    for (const v of numbers) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const valueType: StorehouseValueType = numbers.every(Number.isInteger) ? 'integer' : 'number';
    return { name, role, node: column?.node ?? null, valueType, min, max, distinct, decision: column?.node === agent };
  });
}

let cached: CatalogueTemplate[] | null = null;

/** Every template of the storehouse (computed once: the templates' data is fixed by their seed). */
export function catalogue(): CatalogueTemplate[] {
  cached ??= INDUSTRY_TEMPLATE_DEFS.map((def) => {
    const graph = def.task.graph();
    return {
      templateId: def.id,
      type: def.id,
      name: def.name,
      description: def.description,
      colour: def.colour,
      rows: def.trajectories * def.steps,
      nodes: graph.nodes.map((n) => n.name),
      agent: def.task.agent,
      fields: fieldsOf(def),
      projectName: def.projectName,
      solutionName: def.solutionName,
      datasetName: def.datasetName,
      rewardName: def.rewardName,
      rewardDescription: def.rewardDescription,
      trajectoryField: def.trajectoryField,
      sequenceField: def.sequenceField,
      datetimeField: def.datetimeField,
      graph: () => def.task.graph(),
      rewardPy: def.task.rewardPy,
    };
  });
  return cached;
}

/** The industries with their template counts. */
export function templateTypes(): StorehouseTemplateType[] {
  return (Object.keys(TYPE_NAMES) as IndustryTemplate[]).map((type) => ({ type, name: TYPE_NAMES[type], count: catalogue().filter((t) => t.type === type).length }));
}

/** The public view of a template (no functions, no seeding names). */
export function presentStorehouseTemplate(t: CatalogueTemplate): StorehouseTemplate {
  return { templateId: t.templateId, type: t.type, name: t.name, description: t.description, colour: t.colour, rows: t.rows, nodes: t.nodes, agent: t.agent, fields: t.fields };
}
