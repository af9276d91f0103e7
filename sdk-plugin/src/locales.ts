/**
 * Translation helpers: key types derived from the zh-CN bundle, and the parity check that
 * every plugin runs on its bundles (same keys, same `{{placeholders}}`).
 */

/** Every dotted path to a string leaf of a nested bundle, e.g. `signIn.title`. */
export type LeafKeys<T> = T extends string
  ? never
  : {
      [K in keyof T & string]: T[K] extends string ? K : T[K] extends object ? `${K}.${LeafKeys<T[K]>}` : never;
    }[keyof T & string];

/** Flattens a nested bundle into `dotted.key -> text`. Non-string leaves are ignored. */
export function flattenBundle(bundle: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(bundle)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else if (v && typeof v === 'object') Object.assign(out, flattenBundle(v as Record<string, unknown>, key));
  }
  return out;
}

/** The sorted `{{placeholder}}` names of a text. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]!).sort();
}

/**
 * Compares two bundles; returns one line per problem (missing key on either side, different
 * placeholders, empty text). An empty array means the bundles match.
 */
export function compareLocaleBundles(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  names: [string, string] = ['zh-CN', 'en-US'],
): string[] {
  const fa = flattenBundle(a);
  const fb = flattenBundle(b);
  const problems: string[] = [];
  for (const k of Object.keys(fa)) {
    if (!(k in fb)) problems.push(`${k}: missing in ${names[1]}`);
  }
  for (const k of Object.keys(fb)) {
    if (!(k in fa)) problems.push(`${k}: missing in ${names[0]}`);
  }
  for (const [k, v] of Object.entries(fa)) {
    const w = fb[k];
    if (w === undefined) continue;
    if (!v.trim()) problems.push(`${k}: empty in ${names[0]}`);
    if (!w.trim()) problems.push(`${k}: empty in ${names[1]}`);
    const pa = placeholdersOf(v).join(',');
    const pb = placeholdersOf(w).join(',');
    if (pa !== pb) problems.push(`${k}: placeholders differ (${pa || '-'} vs ${pb || '-'})`);
  }
  return problems;
}
