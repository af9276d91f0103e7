import { describe, expect, it } from 'vitest';
import { defineServerPlugin, TEMPLATE_TEXT_KEYS, templateText, templateTexts } from './server';

const bundles = {
  'zh-CN': { template: { name: '冷库', basis: '{{rooms}} 个冷库，{{rows}} 行' } },
  'en-US': { template: { name: 'Cold room', basis: '{{rows}} rows of {{rooms}} rooms' } },
};

describe('templateText', () => {
  it('takes a text of both languages from the bundles and fills its placeholders', () => {
    expect(templateText(bundles, 'template.name')).toEqual({ 'zh-CN': '冷库', 'en-US': 'Cold room' });
    expect(templateText(bundles, 'template.basis', { rows: 4000, rooms: 20 })).toEqual({ 'zh-CN': '20 个冷库，4000 行', 'en-US': '4000 rows of 20 rooms' });
    // A placeholder without a value stays visible rather than vanish.
    expect(templateText(bundles, 'template.basis', { rows: 1 })['en-US']).toBe('1 rows of {{rooms}} rooms');
  });

  it('fails on a key missing in a language or not a text', () => {
    expect(() => templateText(bundles, 'template.title')).toThrow('No text "template.title" in zh-CN');
    expect(() => templateText({ ...bundles, 'en-US': { template: { name: 'x' } } }, 'template.basis')).toThrow('No text "template.basis" in en-US');
    expect(() => templateText(bundles, 'template')).toThrow(/No text "template"/);
  });
});

describe('templateTexts', () => {
  it("reads every text of a template from the SDK's layout, and fails naming a missing one", () => {
    const full = (lang: string) => ({ industry: `${lang} industry`, template: Object.fromEntries(TEMPLATE_TEXT_KEYS.map((k) => [k, `${lang} ${k}`])) });
    const texts = templateTexts({ 'zh-CN': full('zh'), 'en-US': full('en') });
    expect(Object.keys(texts).sort()).toEqual(['industryName', ...TEMPLATE_TEXT_KEYS].sort());
    expect(texts.industryName).toEqual({ 'zh-CN': 'zh industry', 'en-US': 'en industry' });
    expect(texts.rewardDescription).toEqual({ 'zh-CN': 'zh rewardDescription', 'en-US': 'en rewardDescription' });
    const partial = full('en');
    delete (partial.template as Record<string, string>).datasetName;
    expect(() => templateTexts({ 'zh-CN': full('zh'), 'en-US': partial })).toThrow('No text "template.datasetName" in en-US');
  });
});

describe('defineServerPlugin with templates', () => {
  const text = { 'zh-CN': '示例', 'en-US': 'Demo' };
  const template = {
    id: 'demo',
    industry: 'demo',
    industryName: text,
    name: text,
    description: text,
    projectName: text,
    solutionName: text,
    datasetName: text,
    rewardName: text,
    rewardDescription: text,
    colour: 'blue' as const,
    data: { file: new URL('file:///demo.csv'), trajectoryField: 'k', sequenceField: 's', datetimeField: 't' },
    graph: 'metadata:\n  graph:\n    a:\n    - x\n  columns:\n  - cx: {dim: x, type: continuous, min: 0, max: 1}\n  - ca: {dim: a, type: continuous, min: 0, max: 1}\n',
    reward: "def get_reward(data):\n    return data['a'][..., 0:1]\n",
  };

  it('parses the graph and names the agent and its columns', () => {
    const p = defineServerPlugin({ id: 'acme.demo', templates: [template] });
    expect(p.templates.map((t) => [t.id, t.agent, [...t.decisionFields]])).toEqual([['demo', 'a', ['ca']]]);
    expect(Object.isFrozen(p.templates[0])).toBe(true);
    // A plugin without templates has none (plugins written before templates existed still load).
    expect(defineServerPlugin({ id: 'acme.none' }).templates).toEqual([]);
  });

  it('refuses an unknown colour, a missing language and a bad industry', () => {
    expect(() => defineServerPlugin({ id: 'acme.demo', templates: [{ ...template, colour: 'pink' as 'blue' }] })).toThrow(/unknown colour "pink"/);
    expect(() => defineServerPlugin({ id: 'acme.demo', templates: [{ ...template, description: { 'zh-CN': '说明' } as typeof text }] })).toThrow(/description needs text in en-US/);
    expect(() => defineServerPlugin({ id: 'acme.demo', templates: [{ ...template, industry: 'Cold Rooms' }] })).toThrow(/industry must be kebab-case/);
  });
});
