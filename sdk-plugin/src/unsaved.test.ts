import { describe, expect, it } from 'vitest';
import { compareLocaleBundles } from './locales';
import { UNSAVED_BUNDLES, UnsavedChangesRegistry } from './unsaved';

describe('unsaved changes', () => {
  it('has the same keys and placeholders in both languages', () => {
    expect(compareLocaleBundles(UNSAVED_BUNDLES['zh-CN'], UNSAVED_BUNDLES['en-US'])).toEqual([]);
    expect(UNSAVED_BUNDLES['zh-CN'].unsaved.message).toBe('离开此页面？未保存的修改将会丢失。');
  });

  it('asks the registered pages, the latest first, and stops at the first that stays', async () => {
    const r = new UnsavedChangesRegistry();
    const asked: string[] = [];
    let changes = 0;
    r.onDidChange(() => changes++);
    await expect(r.confirmLeave()).resolves.toBe(true);
    const a = r.register({ confirmLeave: async () => (asked.push('a'), true) });
    const b = r.register({ confirmLeave: async () => (asked.push('b'), false) });
    expect(r.hasUnsavedChanges()).toBe(true);
    await expect(r.confirmLeave()).resolves.toBe(false);
    expect(asked).toEqual(['b']);
    b.dispose();
    b.dispose();
    await expect(r.confirmLeave()).resolves.toBe(true);
    expect(asked).toEqual(['b', 'a']);
    a.dispose();
    expect(r.hasUnsavedChanges()).toBe(false);
    expect(changes).toBe(4);
  });
});
