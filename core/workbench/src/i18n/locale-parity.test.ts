import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareLocaleBundles } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from '../main';
import { WORKBENCH_LOCALES } from './i18n';

// Every plugin folder with locales, found on disk (so plugins not yet listed in main.tsx count too).
const pluginsDir = resolve(__dirname, '../../../../plugins');
const onDisk = readdirSync(pluginsDir)
  .filter((d) => existsSync(join(pluginsDir, d, 'locales', 'zh-CN.json')) || existsSync(join(pluginsDir, d, 'locales', 'en-US.json')))
  .map((d) => {
    const read = (l: string) => {
      const f = join(pluginsDir, d, 'locales', `${l}.json`);
      return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>) : {};
    };
    return [`plugins/${d}`, { 'zh-CN': read('zh-CN'), 'en-US': read('en-US') }] as const;
  });

describe('locale bundles', () => {
  const loaded = [['workbench', WORKBENCH_LOCALES] as const, ...APP_PLUGINS.map((p) => [p.id, p.locales] as const)];

  it.each([...loaded, ...onDisk])('%s: zh-CN and en-US have the same keys and placeholders', (_, locales) => {
    expect(locales).toBeDefined();
    expect(compareLocaleBundles(locales!['zh-CN'], locales!['en-US'])).toEqual([]);
  });

  it('finds the plugins on disk', () => {
    expect(onDisk.map(([n]) => n)).toEqual(expect.arrayContaining(['plugins/account', 'plugins/dashboard', 'plugins/sdk']));
  });

  it('detects a missing key and a different placeholder', () => {
    expect(compareLocaleBundles({ a: 'x {{n}}', b: 'y' }, { a: 'x {{m}}' })).toEqual(['b: missing in en-US', 'a: placeholders differ (n vs m)']);
  });
});
