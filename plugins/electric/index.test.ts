import { describe, expect, it, vi } from 'vitest';

// Importing the manifest must load no page code (it sits behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/ElectricPages', async (orig) => (loaded.push('ElectricPages'), orig()));

describe('electric manifest', () => {
  it('declares the public spec routes and a palette command, and loads no page when imported', async () => {
    const { electricPlugin } = await import('./index');
    expect(electricPlugin.routes.map((r) => [r.path, (r as { public?: boolean }).public])).toEqual([
      ['/electric', true],
      ['/electric/330', true],
      ['/electric/330/result', true],
      ['/electric/600', true],
      ['/electric/600/result', true],
      ['/electric/connect', true],
    ]);
    expect(electricPlugin.commands.map((c) => c.id)).toEqual(['electric.open-demo']);
    expect(loaded).toEqual([]);
    await (electricPlugin.routes[0] as { load: () => Promise<unknown> }).load();
    expect(loaded).toEqual(['ElectricPages']);
  });
});
