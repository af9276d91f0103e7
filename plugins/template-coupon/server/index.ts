/**
 * The coupon industry template's server part, written only against `@decisio/sdk-plugin` (as a
 * third party would): stores' logged stock, season, price, orders and sales
 * (`data/coupon.csv`: 20 stores × 100 days, generated once with the learning engine's
 * `inventoryTask` from seed 2026), its REVIVE decision graph, `reward.py` and a report renderer.
 * The server finds it through `package.json` (`decisio.server`).
 */
import { defineServerPlugin, templateTexts } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { COUPON_GRAPH_YAML, COUPON_REWARD_PY } from './graph';
import { couponReport } from './report';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };

export const serverPlugin = defineServerPlugin({
  id: 'decisio.template-coupon',
  templates: [
    {
      id: 'coupon',
      industry: 'coupon',
      ...templateTexts(bundles),
      task: 'inventory',
      colour: 'gold',
      data: { file: new URL('../data/coupon.csv', import.meta.url), trajectoryField: 'store', sequenceField: 'period', datetimeField: 'date' },
      graph: COUPON_GRAPH_YAML,
      reward: COUPON_REWARD_PY,
      report: couponReport,
    },
  ],
});
