import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { templateElectricPlugin } from './index';
import { serverPlugin } from './server/index';

/** Every key path of a bundle with the placeholders of its text. */
function shape(bundle: unknown, prefix = ''): string[] {
  if (typeof bundle === 'string') return [`${prefix} ${(bundle.match(/\{\{\w+\}\}/g) ?? []).sort().join(',')}`];
  return Object.entries(bundle as Record<string, unknown>).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

describe('template-electric plugin', () => {
  it('has the same keys and placeholders in both languages', () => {
    expect(shape(enUS)).toEqual(shape(zhCN));
  });

  it('declares its template on the server (checked on import) and names it to the workbench', () => {
    const [tpl] = serverPlugin.templates;
    expect(serverPlugin.templates).toHaveLength(1);
    expect(tpl!.id).toBe('electric');
    expect(tpl!.agent).toBe('action');
    expect(tpl!.decisionFields).toEqual(['power_action']);
    expect(tpl!.name['en-US']).toBe(enUS.template.name);
    expect(tpl!.name['zh-CN']).toBe(zhCN.template.name);
    expect(fs.existsSync(tpl!.data.file)).toBe(true);
    expect(templateElectricPlugin.templates.map((t) => t.templateId)).toEqual(['electric']);
    expect(templateElectricPlugin.commands[0]!.id).toBe('template-electric.open');
    // The template centre's card links to the public demo of the template (plugins/electric).
    expect(templateElectricPlugin.templates[0]!.demoPath).toBe('/electric');
  });
});
