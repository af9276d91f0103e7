import { describe, expect, it, vi } from 'vitest';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

// Importing the manifest must load no panel code (it sits behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/MarketPanel', async (orig) => (loaded.push('MarketPanel'), orig()));

function keysOf(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}=${String(v).match(/{{\w+}}/g)?.sort().join(',') ?? ''}`]));
}

describe('market manifest', () => {
  it('declares the page, the side menu (under the project area) and the palette command, and loads no panel when imported', async () => {
    const { marketPlugin } = await import('./index');
    expect(marketPlugin.routes.map((r) => r.path)).toEqual(['/model-market']);
    expect(marketPlugin.menuItems.map((m) => [m.to, m.menu, m.location])).toEqual([['/model-market', '/all-project', 'side']]);
    expect(marketPlugin.commands.map((c) => c.id)).toEqual(['market.open', 'market.publish']);
    expect(loaded).toEqual([]);
    await marketPlugin.panels[0]!.load();
    expect(loaded).toEqual(['MarketPanel']);
  });

  it('has the same keys and placeholders in both languages', () => {
    expect(keysOf(enUS).sort()).toEqual(keysOf(zhCN).sort());
  });
});
