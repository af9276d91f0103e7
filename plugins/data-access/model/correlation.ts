/**
 * The data-access step (spec workflow §2 `/workflow/table-correlation`, §5 "Data access") as a
 * draft the panel edits, its client-side checks, and its conversion to and from the
 * `solution/setTableCorrelation` payload.
 *
 * Rules (`validateCorrelation` of core/domain, which the server applies too): a primary table is
 * required; trajectory and sequence fields are required, the datetime field optional (a table
 * without a time column), each a column of the primary table; every table slot needs a dataset,
 * and the dataset a structure (columns); every table must be connected to the primary one
 * through relations on keys that exist in both tables.
 */
import { correlationDraftOf, type CorrelationDraft, type SetTableCorrelationRequest } from '@decisio/domain';

// The rules live in core/domain, so that the server refuses what the panel refuses.
export { validateCorrelation, type ColumnsById, type CorrelationDraft, type CorrelationErrorKey, type CorrelationErrors } from '@decisio/domain';
export type { CorrelationRelation as RelationDraft } from '@decisio/domain';

export const emptyDraft = (): CorrelationDraft => ({ tables: [''], trajectoryField: '', sequenceField: '', datetimeField: '', relations: [] });

/** The payload of `solution/setTableCorrelation`. */
export function toCorrelation(d: CorrelationDraft): SetTableCorrelationRequest['correlation'] {
  const primary = d.tables[0]!;
  return {
    primaryTableId: primary,
    datasetId: primary,
    trajectoryField: d.trajectoryField,
    sequenceField: d.sequenceField,
    ...(d.datetimeField ? { datetimeField: d.datetimeField } : {}),
    relations: d.relations.map((r) => ({ from: r.from, fromField: r.fromField, to: r.to, toField: r.toField })),
  };
}

/** The draft of a saved correlation (tables: the primary one, then those the relations name). */
export function fromCorrelation(c: SetTableCorrelationRequest['correlation'] | null | undefined): CorrelationDraft {
  return correlationDraftOf(c);
}
