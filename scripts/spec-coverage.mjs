#!/usr/bin/env node
/**
 * Compares `docs/spec-calls.json` with the specification's text, for when the spec changes (the
 * spec is kept outside the repository, so no test can read it):
 *
 *   node scripts/spec-coverage.mjs <folder holding platform.md and workflow.md> [list.json]
 *
 * It reads the call names the spec writes out (`seg/verb` tokens and the verbs that follow them,
 * `seg (verb, verb)` lists, `- Label: verb, verb` bullets, the workflow's call table) and the
 * routes (`/path` tokens, `area /x: a, b` lists), and reports what the spec names that the list
 * lacks and what the list holds that the spec does not write out (entries with a `note` were read
 * by hand and are only shown). Exit code 1 when the spec names something the list lacks.
 * Words the reader cannot turn into a name (e.g. "pump control list") are printed to be read by
 * hand. Whether the server and the workbench offer the list is checked by
 * server/src/http/spec-calls.test.ts and core/workbench/src/shell/spec-routes.test.tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Slash words of the spec that are prose, not calls. */
const PROSE = new Set(['create/edit', 'expired/invalid']);
const IDENT = /^[a-z][A-Za-z]*$/;
const METHOD = /^(GET|POST|PUT|DELETE) /;

/** The `## 7.` section (calls) or `## 2.` section (routes) of a spec document. */
function section(text, n) {
  const start = text.search(new RegExp(`^## ${n}\\.`, 'm'));
  if (start < 0) return '';
  const rest = text.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Splits on commas and semicolons outside parentheses. */
function items(s) {
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if ((ch === ',' || ch === ';') && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * The call names a spec document writes out, and the words it could not read as names.
 * @param {string} text the document
 * @returns {{ calls: Set<string>, unread: string[] }}
 */
export function callsOf(text) {
  const calls = new Set();
  const unread = [];
  const body = section(text, 7);
  const add = (seg, verb) => {
    const v = verb.replace(METHOD, '').replace(/^each /, '').trim();
    if (v.includes('/')) return; // a token of its own
    if (!IDENT.test(v)) {
      if (v && !/^(GET|POST|PUT|DELETE)$/.test(v)) unread.push(`${seg}: ${v}`);
      return;
    }
    calls.add(`${seg}/${v}`);
  };
  /** Items that read as a list of verbs rather than a comment: `(a, b, GET c)` vs `(multipart, no timeout)`. */
  const listLike = (inner) => {
    const xs = items(inner);
    return xs.filter((x) => IDENT.test(x.replace(METHOD, '')) || /^(GET|POST|PUT|DELETE)$/.test(x) || x.includes('/')).length * 2 >= xs.length;
  };
  /**
   * A list of verbs of `seg`: `seg/verb` tokens and `seg: verb` labels change the segment of the
   * verbs that follow, `seg (verb, verb)` is a nested list, `verb (a comment)` (or a single word in parentheses after a verb) a verb.
   */
  const list = (seg, s) => {
    let cur = seg;
    for (const it of items(s)) {
      const paren = /^([a-z][A-Za-z]*) \((.*)\)$/.exec(it);
      const token = /^(?:(?:GET|POST|PUT|DELETE) )?([a-z][A-Za-z]*)\/([A-Za-z{}/]*)(?: \(.*\))?$/.exec(it);
      const labelled = /^([a-z][A-Za-z]*): (.*)$/.exec(it);
      if (token && token[2] && !PROSE.has(`${token[1]}/${token[2]}`)) {
        calls.add(`${token[1]}/${token[2]}`);
        cur = token[1];
      } else if (labelled) {
        cur = labelled[1];
        add(cur, labelled[2]);
      } else if (paren && listLike(paren[2]) && (!cur || items(paren[2]).length > 1)) list(paren[1], paren[2]);
      else if (cur) add(cur, it.replace(/ \([^)]*\)$/, ''));
      else unread.push(it);
    }
  };
  for (const line of body.split('\n')) {
    const bullet = /^- ([A-Za-z -]+): (.*?)\.?$/.exec(line);
    const row = /^\| ([^|]+) \| ([^|]+) \|$/.exec(line);
    if (bullet) {
      // `- Project: createProject, ...` : verbs under the label's segment; else tokens and lists.
      if (items(bullet[2]).every((x) => IDENT.test(x))) list(bullet[1].toLowerCase().replace(/\s.*$/, ''), bullet[2]);
      else list('', bullet[2]);
    } else if (row && !/^(Area|---)/.test(row[1].trim())) {
      const area = row[1].trim();
      const segs = area.split(', ').map((a) => a.replace(/\/$/, ''));
      // `| Solution | create, ... |`, `| train/ | ... |`; the other rows name their segments.
      if (segs.every((x) => /^[A-Za-z]+$/.test(x)) && !/[:/(]/.test(row[2])) for (const x of segs) list(x[0].toLowerCase() + x.slice(1), row[2]);
      else list('', row[2]);
    }
  }
  return { calls, unread };
}

/**
 * The routes a spec document writes out (section 2).
 * @param {string} text the document
 * @returns {Set<string>}
 */
export function routesOf(text) {
  const out = new Set();
  const body = section(text, 2);
  for (const m of body.matchAll(/(?<=[\s(,|])\/(?:[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*)?(?=[\s,.;:)|]|$)/g)) out.add(m[0]);
  // `area /x: a, b, c.` : the pages under /x.
  for (const m of body.matchAll(/(\/[a-z-]+): ([a-z-]+(?:, [a-z-]+)+)\./g)) for (const p of m[2].split(', ')) out.add(`${m[1]}/${p}`);
  return out;
}

/**
 * Compares the spec's texts with the list.
 * @param {{ platform: string, workflow: string }} texts
 * @param {{ calls: { name: string, note?: string }[], routes: { path: string }[] }} list
 */
export function compare(texts, list) {
  const named = new Set();
  const unread = [];
  const routes = new Set();
  for (const text of [texts.platform, texts.workflow]) {
    const c = callsOf(text);
    c.calls.forEach((x) => named.add(x));
    unread.push(...c.unread);
    routesOf(text).forEach((x) => routes.add(x));
  }
  const listedCalls = new Set(list.calls.map((c) => c.name));
  const listedRoutes = new Set(list.routes.map((r) => r.path));
  return {
    callsNotListed: [...named].filter((n) => !listedCalls.has(n)).sort(),
    listedNotNamed: list.calls.filter((c) => !named.has(c.name) && !c.note).map((c) => c.name).sort(),
    readByHand: list.calls.filter((c) => !named.has(c.name) && c.note).map((c) => `${c.name}: ${c.note}`),
    // A path token that only opens an area (`/project`, `/gfs`) is the prefix of listed routes.
    routesNotListed: [...routes].filter((r) => !listedRoutes.has(r) && ![...listedRoutes].some((l) => l.startsWith(`${r}/`))).sort(),
    listedRoutesNotNamed: [...listedRoutes].filter((r) => !routes.has(r)).sort(),
    unread,
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [dir, listFile] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/spec-coverage.mjs <spec folder> [docs/spec-calls.json]');
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const list = JSON.parse(fs.readFileSync(listFile ?? path.join(root, 'docs/spec-calls.json'), 'utf8'));
  const texts = { platform: fs.readFileSync(path.join(dir, 'platform.md'), 'utf8'), workflow: fs.readFileSync(path.join(dir, 'workflow.md'), 'utf8') };
  const r = compare(texts, list);
  const show = (title, xs) => console.log(`${title}: ${xs.length}${xs.length ? `\n  ${xs.join('\n  ')}` : ''}`);
  show('calls the spec names that the list lacks', r.callsNotListed);
  show('listed calls the spec does not write out', r.listedNotNamed);
  show('listed calls read by hand', r.readByHand);
  show('routes the spec names that the list lacks', r.routesNotListed);
  show('listed routes the spec does not write out', r.listedRoutesNotNamed);
  show('words not read as names', r.unread);
  process.exit(r.callsNotListed.length + r.routesNotListed.length > 0 ? 1 : 0);
}
