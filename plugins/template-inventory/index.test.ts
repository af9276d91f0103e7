import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { templateInventoryPlugin } from './index';
import { serverPlugin } from './server/index';

/** Every key path of a bundle with the placeholders of its text. */
function shape(bundle: unknown, prefix = ''): string[] {
  if (typeof bundle === 'string') return [`${prefix} ${(bundle.match(/\{\{\w+\}\}/g) ?? []).sort().join(',')}`];
  return Object.entries(bundle as Record<string, unknown>).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

describe('template-inventory plugin', () => {
  it('has the same keys and placeholders in both languages', () => {
    expect(shape(enUS)).toEqual(shape(zhCN));
  });

  it('declares its template on the server (checked on import) and names it to the workbench', () => {
    const [tpl] = serverPlugin.templates;
    expect(serverPlugin.templates).toHaveLength(1);
    expect(tpl!.id).toBe('inventory');
    expect(tpl!.agent).toBe('order');
    expect(tpl!.decisionFields).toEqual(['order_qty']);
    expect(tpl!.name['en-US']).toBe(enUS.template.name);
    expect(tpl!.name['zh-CN']).toBe(zhCN.template.name);
    expect(fs.existsSync(tpl!.data.file)).toBe(true);
    expect(templateInventoryPlugin.templates.map((t) => t.templateId)).toEqual(['inventory']);
    expect(templateInventoryPlugin.commands[0]!.id).toBe('template-inventory.open');
  });
});

describe('template-inventory data and report', () => {
  it('ships exactly the generator\'s output, and its report measures that data', async () => {
    const { inventoryCsv, INVENTORY_DAYS, INVENTORY_SHOPS } = await import('./server/generate');
    const { inventoryReport, inventoryReward } = await import('./server/report');
    const text = fs.readFileSync(serverPlugin.templates[0]!.data.file, 'utf8');
    expect(text).toBe(inventoryCsv());
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + INVENTORY_SHOPS * INVENTORY_DAYS);
    const rows = lines.slice(1).map((l) => l.split(','));
    const header = lines[0]!.split(',');
    const col = (name: string) => rows.map((r) => Number(r[header.indexOf(name)]));
    // Stock flow: next = stock + order − sold, and the next day starts from it.
    for (let i = 0; i < rows.length; i++) {
      expect(col('next_stock_level')[i]).toBe(col('stock_level')[i]! + col('order_qty')[i]! - col('units_sold')[i]!);
      if (i + 1 < rows.length && rows[i + 1]![0] === rows[i]![0]) expect(col('stock_level')[i + 1]).toBe(col('next_stock_level')[i]);
    }
    const table = {
      columns: header,
      rows,
      numbers: col,
      trajectories: Array.from({ length: INVENTORY_SHOPS }, (_, s) => ({ id: String(s + 1), start: s * INVENTORY_DAYS, end: (s + 1) * INVENTORY_DAYS })),
    };
    const report = inventoryReport(table);
    const margins = rows.map((_, i) => inventoryReward(col('units_sold')[i]!, col('order_qty')[i]!, col('next_stock_level')[i]!));
    expect(report.figures.find((f) => f.id === 'meanMargin')!.value).toBeCloseTo(margins.reduce((a, b) => a + b, 0) / margins.length, 10);
    expect(report.basis['en-US']).toContain('300 days of 5 shops');
    expect(report.basis['zh-CN']).toContain('5 家门店共 300 天');
  });
});
