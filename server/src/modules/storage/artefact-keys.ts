/**
 * Where artefacts live in the blob store and whom they are charged to: the key layout shared by
 * the modelling jobs that write them and the project and solution deletes that remove them.
 */

/** Blob key prefix of a record's artefacts. */
export function artifactPrefix(userId: string | null, kind: string, id: string): string {
  return `u/${userId ?? 'system'}/modelling/${kind}/${id}`;
}

/**
 * Who pays for the artefacts under a prefix of `artifactPrefix`: the user it names, in the
 * record's tenant; null for `system` (jobs without a user charge nobody) and other keys.
 */
export function artefactOwner(prefix: string, tenantId: string): { tenantId: string; userId: string } | null {
  const m = /^u\/([^/]+)\/modelling\//.exec(prefix);
  return m && m[1] !== 'system' ? { tenantId, userId: m[1]! } : null;
}
