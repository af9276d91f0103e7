/**
 * Search of the command palette: a fuzzy match (the query's characters in order, VS Code style)
 * over each entry's title in the current language, its English title and its English keywords,
 * ranked by how tight and how early the match is. Headless, so that it is tested alone.
 */

/** One palette entry as the search sees it. */
export interface PaletteEntry {
  id: string;
  /** Title in the current language. */
  title: string;
  /** English title (searched in every language). */
  englishTitle?: string;
  /** Extra English search words. */
  keywords?: readonly string[];
}

const WORD_START = /[\s\-_/.:(（]/;

/**
 * Score of `query` against `text`, or `null` when the query's characters do not all appear in
 * order. Higher is better: contiguous runs, matches at the start of words and an early first
 * match count more. Case-insensitive; spaces in the query are ignored.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const t = text.toLowerCase();
  // A plain substring is the best kind of match.
  const at = t.indexOf(q);
  if (at >= 0) {
    const wordStart = at === 0 || WORD_START.test(t[at - 1]!);
    return 1000 + q.length * 10 - at + (wordStart ? 50 : 0) - t.length / 100;
  }
  let score = 0;
  let ti = 0;
  let prev = -2;
  let first = -1;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    if (first < 0) first = found;
    if (found === prev + 1) score += 8;
    else if (found === 0 || WORD_START.test(t[found - 1]!)) score += 6;
    else score += 1;
    prev = found;
    ti = found + 1;
  }
  return score - first / 10 - t.length / 100;
}

/** Best score of an entry over its title, English title and keywords (keywords weigh a little less). */
export function entryScore(query: string, e: PaletteEntry): number | null {
  const scores = [fuzzyScore(query, e.title), e.englishTitle ? fuzzyScore(query, e.englishTitle) : null]
    .concat((e.keywords ?? []).map((k) => {
      const s = fuzzyScore(query, k);
      return s === null ? null : s - 5;
    }))
    .filter((s): s is number => s !== null);
  return scores.length ? Math.max(...scores) : null;
}

/** The entries matching `query`, best first (all of them, in their order, for an empty query). */
export function searchPalette<E extends PaletteEntry>(entries: readonly E[], query: string): E[] {
  if (!query.trim()) return [...entries];
  return entries
    .map((e, i) => ({ e, i, s: entryScore(query, e) }))
    .filter((x): x is { e: E; i: number; s: number } => x.s !== null)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.e);
}
