import { describe, expect, it } from 'vitest';
import { entryScore, fuzzyScore, searchPalette } from './palette-search';

const entries = [
  { id: 'workflow.open-policy', title: '打开策略列表', englishTitle: 'Open policies' },
  { id: 'deploy.open-deploy', title: '部署策略', englishTitle: 'Deploy a policy', keywords: ['service', 'publish'] },
  { id: 'deploy.open-records', title: '打开调用记录', englishTitle: 'Open call records', keywords: ['calls', 'monitor'] },
  { id: 'environment.new', title: '新建环境训练', englishTitle: 'New environment training' },
];

describe('palette search', () => {
  it('matches the query’s characters in order, ignoring case and spaces', () => {
    expect(fuzzyScore('dep', 'Deploy a policy')).not.toBeNull();
    expect(fuzzyScore('nwenv', 'New environment training')).not.toBeNull();
    expect(fuzzyScore('new env', 'New environment training')).not.toBeNull();
    expect(fuzzyScore('xyz', 'Deploy a policy')).toBeNull();
    // Order matters: "yold" is not a subsequence of "deploy".
    expect(fuzzyScore('yold', 'deploy')).toBeNull();
  });

  it('ranks a substring above a scattered match and a word start above the middle of a word', () => {
    expect(fuzzyScore('deploy', 'Deploy a policy')!).toBeGreaterThan(fuzzyScore('deploy', 'Develop the plot of a year')!);
    expect(fuzzyScore('pol', 'Deploy a policy')!).toBeGreaterThan(fuzzyScore('pol', 'Xpolar')!);
  });

  it('searches the current language’s title, the English title and the keywords', () => {
    expect(searchPalette(entries, '部署').map((e) => e.id)).toEqual(['deploy.open-deploy']);
    expect(searchPalette(entries, 'deploy')[0]!.id).toBe('deploy.open-deploy');
    expect(searchPalette(entries, 'call rec')[0]!.id).toBe('deploy.open-records');
    expect(searchPalette(entries, 'monitor').map((e) => e.id)).toEqual(['deploy.open-records']);
    expect(searchPalette(entries, '环境').map((e) => e.id)).toEqual(['environment.new']);
    expect(entryScore('zzz', entries[0]!)).toBeNull();
  });

  it('keeps every entry in its order for an empty query', () => {
    expect(searchPalette(entries, '  ').map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });
});
