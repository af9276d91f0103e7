import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { checkTemplateImport } from './boundaries.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('template plugins import only the SDK, the domain and their own files', () => {
  it('refuses every other import, in the rule and through ESLint with the project config', async () => {
    const eslint = new ESLint({ cwd: root });
    const text = fs.readFileSync(path.join(root, 'scripts/fixtures/template-plugin/forbidden.ts.txt'), 'utf8');
    // Linted as a template plugin's file: four imports are refused, three pass.
    const [asTemplate] = await eslint.lintText(text, { filePath: path.join(root, 'plugins/template-fixture/server/index.ts') });
    const refused = asTemplate!.messages.filter((m) => m.ruleId === 'decisio/template-imports');
    expect(refused.map((m) => m.line)).toEqual([2, 3, 4]);
    expect(refused[0]!.message).toBe('a template plugin may import only @decisio/sdk-plugin, @decisio/domain and its own files, not node:fs');
    expect(refused[2]!.message).toMatch(/outside plugins\/template-fixture/);
    expect(asTemplate!.errorCount).toBeGreaterThanOrEqual(3);
    // The same text in an ordinary plugin: the template rule says nothing.
    const [asPlugin] = await eslint.lintText(text, { filePath: path.join(root, 'plugins/projects/fixture.ts') });
    expect(asPlugin!.messages.filter((m) => m.ruleId === 'decisio/template-imports')).toEqual([]);
  });

  it('passes on the template plugins as they are', async () => {
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(['plugins/template-*/**/*.ts']);
    expect(results.length).toBeGreaterThan(6);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`))).toEqual([]);
  });

  it('tells allowed from refused specifiers', () => {
    const from = 'plugins/template-acme/server/index.ts';
    expect(checkTemplateImport(from, '@decisio/sdk-plugin/server')).toBeNull();
    expect(checkTemplateImport(from, '@decisio/sdk-plugin')).toBeNull();
    expect(checkTemplateImport(from, '@decisio/domain')).toBeNull();
    expect(checkTemplateImport(from, '../locales/en-US.json')).toBeNull();
    expect(checkTemplateImport(from, './report')).toBeNull();
    expect(checkTemplateImport(from, 'react')).toMatch(/not react/);
    expect(checkTemplateImport(from, 'zod')).toMatch(/not zod/);
    expect(checkTemplateImport(from, '@decisio/server/src/app')).toMatch(/not @decisio\/server/);
    expect(checkTemplateImport(from, '@decisio/plugin-templates')).toMatch(/only/);
    expect(checkTemplateImport(from, '../../electric/api')).toMatch(/outside/);
    // Tests and files of other folders are not checked by this rule.
    expect(checkTemplateImport('plugins/template-acme/server/report.test.ts', 'node:fs')).toBeNull();
    expect(checkTemplateImport('plugins/templates/index.ts', 'react')).toBeNull();
  });
});
