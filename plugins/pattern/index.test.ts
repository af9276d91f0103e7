import { describe, expect, it, vi } from 'vitest';

// The panel module records its evaluation; importing the manifest must record none, and must
// not pull React Flow, elkjs or Monaco (they sit behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/PatternPanel', async (orig) => (loaded.push('PatternPanel'), orig()));
vi.mock('@xyflow/react', async (orig) => (loaded.push('@xyflow/react'), orig()));
vi.mock('monaco-editor/editor/editor.api', async () => (loaded.push('monaco'), {}));

describe('pattern manifest', () => {
  it('loads no panel, React Flow or Monaco code when imported; the panel loads without React Flow', async () => {
    const { patternPlugin } = await import('./index');
    expect(patternPlugin.routes.map((r) => r.path)).toEqual(['/workflow/pattern']);
    expect(loaded).toEqual([]);
    await patternPlugin.panels[0]!.load();
    expect(loaded).toEqual(['PatternPanel']);
  });
});
