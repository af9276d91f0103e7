/**
 * Field settings (spec workflow §5 "Field settings") as the form edits them (texts), their
 * checks, and the `table/setFields` payload.
 */
import { FIELD_KINDS, type DatasetColumn, type FieldDataType, type FieldSetting } from '@decisio/domain';

/** One row of the form. */
export interface FieldDraft {
  name: string;
  selected: boolean;
  kind: (typeof FIELD_KINDS)[number];
  dataType: FieldDataType;
  min: string;
  max: string;
  discreteNumber: string;
  values: string;
  hidden: boolean;
}

/** Keys under `fields.errors.`. */
export type FieldErrorKey = 'select' | 'number' | 'range' | 'discrete' | 'values';

const num = (v: number | null) => (v === null || v === undefined ? '' : String(v));

export function draftOf(c: DatasetColumn): FieldDraft {
  return {
    name: c.name,
    selected: true,
    kind: c.kind,
    dataType: c.dataType,
    min: num(c.min),
    max: num(c.max),
    discreteNumber: num(c.discreteNumber),
    values: c.values?.join(', ') ?? '',
    hidden: c.hidden,
  };
}

const isNumber = (s: string) => s.trim() !== '' && Number.isFinite(Number(s));

/** Errors by row index (`form` for the whole form); empty when the settings may be saved. */
export function validateFields(rows: FieldDraft[]): Record<string, FieldErrorKey> {
  const errors: Record<string, FieldErrorKey> = {};
  if (!rows.some((r) => r.selected)) errors.form = 'select';
  rows.forEach((r, i) => {
    if (!r.selected) return;
    if ((r.min.trim() && !isNumber(r.min)) || (r.max.trim() && !isNumber(r.max))) errors[i] = 'number';
    else if (isNumber(r.min) && isNumber(r.max) && !(Number(r.min) < Number(r.max))) errors[i] = 'range';
    else if (r.dataType === 'discrete' && r.discreteNumber.trim() && !/^[1-9]\d*$/.test(r.discreteNumber.trim())) errors[i] = 'discrete';
    else if (r.dataType === 'category' && r.values.trim()) {
      // Values are optional (the server keeps none); when given, at least one, numbers only.
      const parts = r.values.split(',').map((s) => s.trim());
      if (!parts.some(Boolean) || !parts.every(isNumber)) errors[i] = 'values';
    }
  });
  return errors;
}

/** The selected rows as `table/setFields` fields. */
export function toFieldSettings(rows: FieldDraft[]): FieldSetting[] {
  return rows
    .filter((r) => r.selected)
    .map((r) => ({
      name: r.name,
      kind: r.kind,
      dataType: r.dataType,
      min: isNumber(r.min) ? Number(r.min) : null,
      max: isNumber(r.max) ? Number(r.max) : null,
      discreteNumber: r.dataType === 'discrete' && r.discreteNumber.trim() ? Number(r.discreteNumber) : null,
      values: r.dataType === 'category' && r.values.trim() ? r.values.split(',').map((s) => Number(s.trim())) : null,
      hidden: r.hidden,
    }));
}
