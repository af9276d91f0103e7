/**
 * The data-access step (spec workflow §2 `/workflow/table-correlation`, §5 "Data access") as a
 * draft the panel edits, its client-side checks, and its conversion to and from the
 * `solution/setTableCorrelation` payload.
 *
 * Rules: a primary table is required; trajectory, sequence and datetime fields are required and
 * must be columns of the primary table; every table slot needs a dataset, and the dataset a
 * structure (columns); every table must be connected to the primary one through relations on
 * keys that exist in both tables.
 */
import type { SetTableCorrelationRequest } from '@decisio/domain';

/** A relation between two tables on one key each. */
export interface RelationDraft {
  from: string;
  fromField: string;
  to: string;
  toField: string;
}

/** What the panel edits. `tables[0]` is the primary table; `''` is a slot with no dataset yet. */
export interface CorrelationDraft {
  tables: string[];
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string;
  relations: RelationDraft[];
}

/** Keys of the messages (under `correlation.errors.` in the locales). */
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

/** Column names of each dataset by id (datasets the caller can see). */
export type ColumnsById = ReadonlyMap<string, readonly string[]>;

export const emptyDraft = (): CorrelationDraft => ({ tables: [''], trajectoryField: '', sequenceField: '', datetimeField: '', relations: [] });

/** Checks a draft; an empty object means it may be saved. */
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
    if (!d[f]) errors[f] = 'fieldRequired';
    else if (primary && !primaryColumns.has(d[f])) errors[f] = 'fieldMismatch';
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

/** The payload of `solution/setTableCorrelation`. */
export function toCorrelation(d: CorrelationDraft): SetTableCorrelationRequest['correlation'] {
  const primary = d.tables[0]!;
  return {
    primaryTableId: primary,
    datasetId: primary,
    trajectoryField: d.trajectoryField,
    sequenceField: d.sequenceField,
    datetimeField: d.datetimeField,
    relations: d.relations.map((r) => ({ from: r.from, fromField: r.fromField, to: r.to, toField: r.toField })),
  };
}

/** The draft of a saved correlation (tables: the primary one, then those the relations name). */
export function fromCorrelation(c: SetTableCorrelationRequest['correlation'] | null | undefined): CorrelationDraft {
  if (!c) return emptyDraft();
  const tables = [c.primaryTableId];
  for (const r of c.relations ?? []) for (const id of [r.from, r.to]) if (id && !tables.includes(id)) tables.push(id);
  return {
    tables,
    trajectoryField: c.trajectoryField,
    sequenceField: c.sequenceField,
    datetimeField: c.datetimeField,
    relations: (c.relations ?? []).map((r) => ({ ...r })),
  };
}
