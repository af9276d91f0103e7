import type { Knex } from 'knex';
import { AppError, correlationDraftOf, correlationMessage, validateCorrelation, type Locale, type SetTableCorrelationRequest } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { checkCsv } from '../datasets/ingest';
import { assertProjectAccess } from '../projects/access';
import type { BlobStore } from '../storage/blob-store';

/**
 * The data-access rules (`validateCorrelation` of core/domain, the ones the panel shows) applied
 * by `solution/setTableCorrelation`: the tables must be datasets the caller can read (their own,
 * or of a project they may view) or csv files the caller uploaded, with the named fields among
 * their columns, every table
 * connected to the primary one. Refused with `paramInvalid`, one message per place, in the
 * caller's language.
 */
export async function assertCorrelation(knex: Knex, blobs: BlobStore, user: ServerCallUser, correlation: SetTableCorrelationRequest['correlation'], locale: Locale): Promise<void> {
  const draft = correlationDraftOf(correlation);
  const ids = [...new Set(draft.tables.filter(Boolean))];
  const rows = (await knex('datasets').where({ tenant_id: user.tenantId }).whereIn('id', ids).select('id', 'user_id', 'project_id', 'columns')) as {
    id: string;
    user_id: string;
    project_id: string | null;
    columns: string;
  }[];
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    let readable = row.user_id === user.id;
    if (!readable && row.project_id) {
      readable = await assertProjectAccess(knex, user, row.project_id, 'view').then(
        () => true,
        () => false,
      );
    }
    // A dataset the caller cannot read counts as one without structure (its columns stay unknown).
    if (readable) columns.set(row.id, (JSON.parse(row.columns) as { name: string }[]).map((c) => c.name));
  }
  // A table may also be an uploaded csv file of the caller (read by the engine as it is): its header.
  const rest = ids.filter((id) => !rows.some((r) => r.id === id));
  if (rest.length > 0) {
    const files = (await knex('storage_files')
      .where({ tenant_id: user.tenantId, user_id: user.id, kind: 'upload' })
      .whereNull('deleted_at')
      .whereIn('id', rest)
      .select('id', 'name', 'blob_key')) as { id: string; name: string; blob_key: string }[];
    for (const f of files) {
      if (!/\.csv$/i.test(f.name)) continue;
      const header = await checkCsv(blobs.pathOf(f.blob_key)).then(
        (r) => r.header,
        () => [],
      );
      columns.set(f.id, header);
    }
  }
  const errors = validateCorrelation(draft, columns);
  if (correlation.datasetId && correlation.datasetId !== correlation.primaryTableId) errors.primary ??= 'fieldMismatch';
  const places = Object.entries(errors);
  if (places.length === 0) return;
  throw new AppError('paramInvalid', Object.fromEntries(places.map(([place, key]) => [`correlation.${place}`, correlationMessage(key, locale)])));
}
