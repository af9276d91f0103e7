import { describe, expect, it, vi } from 'vitest';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

// Importing the manifest must load no panel code (it sits behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/StorehousePanel', async (orig) => (loaded.push('StorehousePanel'), orig()));

function keysOf(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}=${String(v).match(/{{\w+}}/g)?.sort().join(',') ?? ''}`]));
}

describe('storehouse manifest', () => {
  it('declares the page, the side menu (under the template area) and the palette command, and loads no panel when imported', async () => {
    const { storehousePlugin } = await import('./index');
    expect(storehousePlugin.routes.map((r) => r.path)).toEqual(['/template-storehouse']);
    expect(storehousePlugin.menuItems.map((m) => [m.to, m.menu, m.location])).toEqual([['/template-storehouse', '/template-center', 'side']]);
    expect(storehousePlugin.commands.map((c) => c.id)).toEqual(['storehouse.open']);
    expect(loaded).toEqual([]);
    await storehousePlugin.panels[0]!.load();
    expect(loaded).toEqual(['StorehousePanel']);
  });

  it('has the same keys and placeholders in both languages', () => {
    expect(keysOf(enUS).sort()).toEqual(keysOf(zhCN).sort());
  });
});
