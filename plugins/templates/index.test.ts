import { describe, expect, it, vi } from 'vitest';

// Importing the manifest must load no panel code (it sits behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/TemplateCentrePanel', async (orig) => (loaded.push('TemplateCentrePanel'), orig()));

describe('templates manifest', () => {
  it('declares the spec routes, the side menu and palette commands, and loads no panel when imported', async () => {
    const { templatesPlugin } = await import('./index');
    // One route per industry of the listed templates (`$industry`): no industry is built in.
    expect(templatesPlugin.routes.map((r) => r.path)).toEqual(['/template-center', '/template-center/industry/$industry']);
    expect(templatesPlugin.menuItems.map((m) => m.to)).toEqual(['/template-center']);
    expect(templatesPlugin.commands.map((c) => c.id)).toEqual(['templates.open-centre']);
    expect(loaded).toEqual([]);
    await templatesPlugin.panels[0]!.load();
    expect(loaded).toEqual(['TemplateCentrePanel']);
  });
});
