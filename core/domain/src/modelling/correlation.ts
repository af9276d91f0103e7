import type { Locale } from '../errors/messages';
import type { SetTableCorrelationRequest } from './schemas';

/**
 * The rules of the data-access step (spec workflow §5 "Data access", §2
 * `/workflow/table-correlation`), shared by the workbench (as the user edits) and the server
 * (`solution/setTableCorrelation` refuses what breaks them).
 *
 * A primary table is required; trajectory and sequence fields are required and must be columns of
 * the primary table; the datetime field, when named, too (a table without a time column names
 * none); every table slot needs a dataset, and the dataset a structure (columns); every table
 * must be connected to the primary one through relations on keys that exist in both tables.
 */

/** A relation between two tables on one key each. */
export interface CorrelationRelation {
  from: string;
  fromField: string;
  to: string;
  toField: string;
}

/** The step as checked: `tables[0]` is the primary table; `''` is a slot with no dataset yet. */
export interface CorrelationDraft {
  tables: string[];
  trajectoryField: string;
  sequenceField: string;
  /** `''`: the table has no time column. */
  datetimeField: string;
  relations: CorrelationRelation[];
}

/** What can be wrong, by place. */
export type CorrelationErrorKey =
  | 'primaryRequired'
  | 'datasetRequired'
  | 'noStructure'
  | 'duplicateTable'
  | 'fieldRequired'
  | 'fieldMismatch'
  | 'notConnected'
  | 'relationIncomplete'
  | 'relationSameTable';

/** Errors by place: `primary`, `table.<i>`, `trajectoryField`, `sequenceField`, `datetimeField`, `relation.<i>`, `relation.<i>.fromField`, `relation.<i>.toField`. */
export type CorrelationErrors = Record<string, CorrelationErrorKey>;

/** Column names of each dataset by id (the datasets the caller can see). */
export type ColumnsById = ReadonlyMap<string, readonly string[]>;

/** Checks the step; an empty object means it may be saved. */
export function validateCorrelation(d: CorrelationDraft, columns: ColumnsById): CorrelationErrors {
  const errors: CorrelationErrors = {};
  const primary = d.tables[0] ?? '';
  if (!primary) errors.primary = 'primaryRequired';
  const seen = new Set<string>();
  d.tables.forEach((id, i) => {
    const place = i === 0 ? 'primary' : `table.${i}`;
    if (!id) {
      if (i > 0) errors[place] = 'datasetRequired';
      return;
    }
    if (seen.has(id)) errors[place] = 'duplicateTable';
    seen.add(id);
    if ((columns.get(id)?.length ?? 0) === 0) errors[place] ??= 'noStructure';
  });
  const primaryColumns = new Set(columns.get(primary) ?? []);
  for (const f of ['trajectoryField', 'sequenceField', 'datetimeField'] as const) {
    if (!d[f]) {
      if (f !== 'datetimeField') errors[f] = 'fieldRequired';
    } else if (primary && !primaryColumns.has(d[f])) errors[f] = 'fieldMismatch';
  }
  const chosen = new Set(d.tables.filter(Boolean));
  const links = new Map<string, Set<string>>();
  d.relations.forEach((r, i) => {
    if (!r.from || !r.to || !r.fromField || !r.toField || !chosen.has(r.from) || !chosen.has(r.to)) {
      errors[`relation.${i}`] = 'relationIncomplete';
      return;
    }
    if (r.from === r.to) {
      errors[`relation.${i}`] = 'relationSameTable';
      return;
    }
    let ok = true;
    if (!(columns.get(r.from) ?? []).includes(r.fromField)) {
      errors[`relation.${i}.fromField`] = 'fieldMismatch';
      ok = false;
    }
    if (!(columns.get(r.to) ?? []).includes(r.toField)) {
      errors[`relation.${i}.toField`] = 'fieldMismatch';
      ok = false;
    }
    if (!ok) return;
    if (!links.has(r.from)) links.set(r.from, new Set());
    if (!links.has(r.to)) links.set(r.to, new Set());
    links.get(r.from)!.add(r.to);
    links.get(r.to)!.add(r.from);
  });
  if (primary) {
    const reached = new Set([primary]);
    const stack = [primary];
    while (stack.length) for (const n of links.get(stack.pop()!) ?? []) if (!reached.has(n)) reached.add(n), stack.push(n);
    d.tables.forEach((id, i) => {
      if (i > 0 && id && !reached.has(id)) errors[`table.${i}`] ??= 'notConnected';
    });
  }
  return errors;
}

/** The step as stored (`solution/setTableCorrelation`) as a draft: the primary table, then those the relations name. */
export function correlationDraftOf(c: SetTableCorrelationRequest['correlation'] | null | undefined): CorrelationDraft {
  if (!c) return { tables: [''], trajectoryField: '', sequenceField: '', datetimeField: '', relations: [] };
  const tables = [c.primaryTableId];
  for (const r of c.relations ?? []) for (const id of [r.from, r.to]) if (id && !tables.includes(id)) tables.push(id);
  return {
    tables,
    trajectoryField: c.trajectoryField,
    sequenceField: c.sequenceField,
    datetimeField: c.datetimeField ?? '',
    relations: (c.relations ?? []).map((r) => ({ ...r })),
  };
}

const MESSAGES: Record<Locale, Record<CorrelationErrorKey, string>> = {
  'en-US': {
    primaryRequired: 'Choose the primary table',
    datasetRequired: 'Choose a dataset',
    noStructure: 'This table has no structure (no columns), or is not a dataset you can read',
    duplicateTable: 'This dataset is already a table of the step',
    fieldRequired: 'Required',
    fieldMismatch: "The field does not match the table's columns",
    notConnected: 'Every table must be connected',
    relationIncomplete: 'Choose both tables and both keys',
    relationSameTable: 'Connect two different tables',
  },
  'zh-CN': {
    primaryRequired: '请选择主表',
    datasetRequired: '请选择数据集',
    noStructure: '该表没有结构（没有列），或不是您可读取的数据集',
    duplicateTable: '该数据集已是本步骤的表',
    fieldRequired: '必填',
    fieldMismatch: '字段与表的列不匹配',
    notConnected: '每张表都必须关联',
    relationIncomplete: '请选择两张表和两个键',
    relationSameTable: '请关联两张不同的表',
  },
};

/** The message of a rule in a language (the server's error details). */
export function correlationMessage(key: CorrelationErrorKey, locale: Locale): string {
  return MESSAGES[locale][key];
}
