import { describe, expect, it, vi } from 'vitest';

// Importing the manifest must load no panel code (they sit behind import()).
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/TrialPanel', async (orig) => (loaded.push('TrialPanel'), orig()));
vi.mock('./panels/ModelPanel', async (orig) => (loaded.push('ModelPanel'), orig()));
vi.mock('./panels/EncoderPanel', async (orig) => (loaded.push('EncoderPanel'), orig()));

describe('feedback-control manifest', () => {
  it('declares the spec routes (public /gfs-encoder), menu and palette commands, and loads no panel when imported', async () => {
    const { feedbackControlPlugin } = await import('./index');
    expect(feedbackControlPlugin.routes.map((r) => [r.path, !!(r as { public?: boolean }).public])).toEqual([
      ['/gfs', false],
      ['/gfs/online-trial', false],
      ['/gfs/model', false],
      ['/gfs/encoder', false],
      ['/gfs-encoder', true],
    ]);
    expect(feedbackControlPlugin.menuItems.map((m) => m.to)).toEqual(['/gfs/online-trial']);
    expect(feedbackControlPlugin.commands.map((c) => c.id)).toEqual(['feedback-control.open-trial', 'feedback-control.open-model', 'feedback-control.open-encoder']);
    expect(loaded).toEqual([]);
    await feedbackControlPlugin.panels[0]!.load();
    expect(loaded).toEqual(['TrialPanel']);
  });
});
