/**
 * The electric industry template's server part, written only against `@decisio/sdk-plugin` (as
 * a third party would): a cold room's logged temperature, door state and cooling power
 * (`data/electric.csv`: 20 rooms × 200 quarter-hours, generated once with the learning engine's
 * `thermalTask` from seed 2026), its REVIVE decision graph, `reward.py` and a report renderer.
 * The server finds it through `package.json` (`decisio.server`).
 */
import { defineServerPlugin, templateTexts } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { ELECTRIC_GRAPH_YAML, ELECTRIC_REWARD_PY } from './graph';
import { electricReport } from './report';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };

export const serverPlugin = defineServerPlugin({
  id: 'decisio.template-electric',
  templates: [
    {
      id: 'electric',
      industry: 'electric',
      ...templateTexts(bundles),
      task: 'thermal',
      colour: 'cyan',
      data: { file: new URL('../data/electric.csv', import.meta.url), trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time' },
      graph: ELECTRIC_GRAPH_YAML,
      reward: ELECTRIC_REWARD_PY,
      report: electricReport,
    },
  ],
});
