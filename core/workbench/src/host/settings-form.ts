/**
 * Headless description of a setting's form field, derived from its zod schema (STYLE 3:
 * settings are zod schemas and their UI is generated).
 */
import type { $ZodType } from 'zod/v4/core';

/** The field to render for a setting. */
export type SettingField =
  | { kind: 'boolean' }
  | { kind: 'number' }
  | { kind: 'string' }
  | { kind: 'enum'; options: string[] }
  | { kind: 'unsupported'; type: string };

interface Def {
  type: string;
  innerType?: $ZodType;
  entries?: Record<string, string | number>;
}

function defOf(schema: $ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Describes the field of a schema; optional/default/nullable wrappers are looked through. */
export function describeSettingField(schema: $ZodType): SettingField {
  let def = defOf(schema);
  while ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'readonly') && def.innerType) {
    def = defOf(def.innerType);
  }
  switch (def.type) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
    case 'int':
      return { kind: 'number' };
    case 'string':
      return { kind: 'string' };
    case 'enum':
      return { kind: 'enum', options: Object.values(def.entries ?? {}).map(String) };
    default:
      return { kind: 'unsupported', type: def.type };
  }
}
