/**
 * The mapping editor's state, headless: the proposal of a template match as a field -> column
 * record, the problems the user must fix before a project can be made (a required field without
 * a column, a column used twice), and the request it becomes.
 */
import type { FieldMapping, TemplateMatch } from '@decisio/domain';

/** Field name -> chosen column name ('' for none). */
export type MappingDraft = Record<string, string>;

/** What is wrong with a field's choice. */
export type MappingIssue = 'required' | 'duplicate';

/** The recognizer's proposal as a draft. */
export function draftOf(match: TemplateMatch): MappingDraft {
  return Object.fromEntries(match.mapping.map((m) => [m.field, m.column ?? '']));
}

/** The problem of each field that has one. */
export function mappingIssues(match: TemplateMatch, draft: MappingDraft): Record<string, MappingIssue> {
  const issues: Record<string, MappingIssue> = {};
  const uses = new Map<string, number>();
  for (const m of match.mapping) if (draft[m.field]) uses.set(draft[m.field]!, (uses.get(draft[m.field]!) ?? 0) + 1);
  for (const m of match.mapping) {
    const column = draft[m.field] ?? '';
    if (!column) {
      if (m.required) issues[m.field] = 'required';
    } else if ((uses.get(column) ?? 0) > 1) issues[m.field] = 'duplicate';
  }
  return issues;
}

/** The accepted mapping as `templateWarehouse/createProject` takes it (fields without a column left out). */
export function mappingRequest(match: TemplateMatch, draft: MappingDraft): FieldMapping[] {
  return match.mapping.flatMap((m) => (draft[m.field] ? [{ field: m.field, column: draft[m.field]! }] : []));
}
