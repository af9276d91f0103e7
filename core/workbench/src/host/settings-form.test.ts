import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeSettingField } from './settings-form';
import { SettingsServiceImpl } from './settings';

describe('generated settings', () => {
  it('describes fields from zod schemas', () => {
    expect(describeSettingField(z.boolean())).toEqual({ kind: 'boolean' });
    expect(describeSettingField(z.number().min(1).default(3))).toEqual({ kind: 'number' });
    expect(describeSettingField(z.string().optional())).toEqual({ kind: 'string' });
    expect(describeSettingField(z.enum(['a', 'b']))).toEqual({ kind: 'enum', options: ['a', 'b'] });
  });

  it('validates and keeps values per user', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    let user = 'u1';
    const s = new SettingsServiceImpl(
      () => [{ id: 'demo.size', titleKey: 'size', schema: z.number().int().min(1).max(10), default: 5 }],
      () => user,
      storage,
    );
    expect(s.get('demo.size')).toBe(5);
    s.set('demo.size', 7);
    expect(s.get('demo.size')).toBe(7);
    expect(() => s.set('demo.size', 99)).toThrow();
    user = 'u2';
    expect(s.get('demo.size')).toBe(5);
    expect(() => s.get('demo.none')).toThrow(/unknown setting/);
  });
});
