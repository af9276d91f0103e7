/**
 * Every call the specification names (`docs/spec-calls.json`) is either made by the workbench
 * (some plugin, the shell or the SDK names it) or carries a `uiNote` saying why not (another
 * call covers it, or it serves scripts and other clients). A note on a call the workbench does
 * make is stale and fails too. "Names it": the call in quotes (`'table/list'`, or a path such
 * as `/api/file/uploadOneFile?...`), `` `roles/${id}` `` for `roles/{id}`, or a template
 * `` `${area}/list` `` in a file that also holds the segment (`'trainSimulator'`) in quotes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface SpecCall {
  name: string;
  method: string;
  uiNote?: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const list = JSON.parse(fs.readFileSync(path.join(root, 'docs/spec-calls.json'), 'utf8')) as { calls: SpecCall[] };

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}
const files = [path.join(root, 'plugins'), path.join(root, 'core/workbench/src'), path.join(root, 'sdk-plugin/src')].flatMap(sources).map((f) => fs.readFileSync(f, 'utf8'));
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The workbench names the call literally. */
function literal(name: string): boolean {
  if (name.endsWith('/{id}')) {
    const re = new RegExp('`' + esc(name.slice(0, -'{id}'.length)) + '\\$\\{');
    return files.some((t) => re.test(t));
  }
  const re = new RegExp(`['"\`/]${esc(name)}['"\`?]`);
  return files.some((t) => re.test(t));
}

/** The workbench builds the call's path from its area: `${…}/verb` beside `'segment'`. */
function built(name: string): boolean {
  const [segment, verb] = name.split('/');
  if (!segment || !verb) return false;
  const template = new RegExp('`\\$\\{[^}]+\\}/' + esc(verb) + '`');
  const quoted = new RegExp(`['"]${esc(segment)}['"]`);
  return files.some((t) => template.test(t) && quoted.test(t));
}

describe('spec calls in the workbench', () => {
  it('has read the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(literal('table/list')).toBe(true);
    expect(literal('no-such/call')).toBe(false);
  });

  it('makes every call the spec names, or says in a uiNote why not', () => {
    const unexplained = list.calls.filter((c) => !c.uiNote && !literal(c.name) && !built(c.name)).map((c) => `${c.method} ${c.name}`);
    expect(unexplained).toEqual([]);
  });

  it('has no uiNote on a call the workbench makes', () => {
    const stale = list.calls.filter((c) => c.uiNote && literal(c.name)).map((c) => `${c.method} ${c.name}`);
    expect(stale).toEqual([]);
  });
});
