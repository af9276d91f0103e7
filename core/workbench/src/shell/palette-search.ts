/**
 * Search of the command palette: a fuzzy match (the query's characters in order, VS Code style)
 * over each entry's title in the current language, its titles in the other languages and its
 * keywords, whatever the interface language, ranked by how tight and how early the match is (a
 * match in the current language's title first). Headless, so that it is tested alone.
 */

/**
 * Where a palette entry comes from: the shell's own (Settings), a command a plugin contributes,
 * or a side-menu entry that opens a page ("Go to ...").
 */
export type PaletteSource = 'shell' | 'command' | 'page';

/** One palette entry as the search sees it. */
export interface PaletteEntry {
  id: string;
  /** Title in the current language. */
  title: string;
  /**
   * Titles in the other languages (searched whatever the interface language: "用户" finds the
   * users' screen in English, "users" in Chinese); a match there weighs a little less.
   */
  otherTitles?: readonly string[];
  /** Extra search words (searched in every language). */
  keywords?: readonly string[];
  /** Where it comes from; a side-menu entry (`page`) gives way to a command that scores about the same. */
  source?: PaletteSource;
}

const WORD_START = /[\s\-_/.:(（]/;
/** Scripts written without spaces between words (Chinese, Japanese kana). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Whether a word may start at `t[i]`: the start of the text, after a space or punctuation, or a
 * character of a script written without spaces, where any character may begin a word (so a
 * Chinese title's match after a space, e.g. "打开 SSH 调试终端", is no better than one inside
 * "打开调试页面"; there the earlier match wins).
 */
function wordStartAt(t: string, i: number): boolean {
  return i === 0 || WORD_START.test(t[i - 1]!) || UNSPACED.test(t[i]!);
}

/**
 * Score of `query` against `text`, or `null` when the query's characters do not all appear in
 * order. Higher is better: contiguous runs, matches at the start of words, an early first match
 * and (for a substring) a larger share of the text matched count more. Case-insensitive; spaces
 * in the query are ignored.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const t = text.toLowerCase();
  // A plain substring is the best kind of match.
  const at = t.indexOf(q);
  if (at >= 0) {
    // the share of the text matched weighs up to 10, less than the word start (50) or the
    // match's length (10 a character), comparable to a few characters of position
    return 1000 + q.length * 10 - at + (wordStartAt(t, at) ? 50 : 0) + (10 * q.length) / t.length;
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
    else if (wordStartAt(t, found)) score += 6;
    else score += 1;
    prev = found;
    ti = found + 1;
  }
  return score - first / 10 - t.length / 100;
}

const best = (scores: ReadonlyArray<number | null>): number | null => {
  const found = scores.filter((s): s is number => s !== null);
  return found.length ? Math.max(...found) : null;
};

/** What a match in a title of another language than the interface's, or in a keyword, loses. */
const OTHER_TITLE_PENALTY = 3;
const KEYWORD_PENALTY = 5;

/**
 * What a side-menu entry ("Go to Users") loses against the commands: a word matches both a command
 * and the "Go to" entry of its page ("用户" in English: "Admin: users" / "管理：用户" and "Go to
 * Users" / "前往用户"; "system log" in Chinese), and there the command ranks first, though the
 * "Go to" title, shorter, scores a few points more (the match a few characters earlier or a larger
 * share of the title). 10 is the weight of one more character matched in a substring: a page the
 * query names clearly better still ranks first.
 */
const NAVIGATION_PENALTY = 10;

const less = (s: number | null, by: number): number | null => (s === null ? null : s - by);

/** Best score of an entry over its title and its titles in the other languages (which weigh a little less). */
function titleScore(query: string, e: PaletteEntry): number | null {
  return best([fuzzyScore(query, e.title), ...(e.otherTitles ?? []).map((t) => less(fuzzyScore(query, t), OTHER_TITLE_PENALTY))]);
}

/** Best score of an entry over its titles and keywords (keywords weigh a little less). */
export function entryScore(query: string, e: PaletteEntry): number | null {
  return best([titleScore(query, e), ...(e.keywords ?? []).map((k) => less(fuzzyScore(query, k), KEYWORD_PENALTY))]);
}

/** The score that ranks `e` among the others: {@link entryScore}, less {@link NAVIGATION_PENALTY} for a side-menu entry. */
function rankScore(query: string, e: PaletteEntry): number | null {
  return e.source === 'page' ? less(entryScore(query, e), NAVIGATION_PENALTY) : entryScore(query, e);
}

/**
 * The entries matching `query`, best first (all of them, in their order, for an empty query);
 * a command ranks above a side-menu entry ("Go to ...") that scores the same or nearly
 * ({@link NAVIGATION_PENALTY}); entries that score the same (e.g. through the same keyword) are
 * ranked by their titles' score.
 */
export function searchPalette<E extends PaletteEntry>(entries: readonly E[], query: string): E[] {
  if (!query.trim()) return [...entries];
  return entries
    .map((e, i) => ({ e, i, s: rankScore(query, e), t: titleScore(query, e) ?? -Infinity }))
    .filter((x): x is { e: E; i: number; s: number; t: number } => x.s !== null)
    .sort((a, b) => b.s - a.s || (b.t === a.t ? 0 : b.t > a.t ? 1 : -1) || a.i - b.i)
    .map((x) => x.e);
}
