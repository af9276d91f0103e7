/**
 * The retail restocking template, written from `sdk-plugin/README.md` alone (as a test of the
 * docs): a small generated table (`data/inventory.csv`, from `generate.ts`), its REVIVE graph,
 * `reward.py` and a report renderer. Found by the server through `package.json`.
 */
import { defineServerPlugin, templateTexts } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { inventoryReport } from './report';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };

/** The shop orders from its stock and the weekday; the sales answer; the stock follows. */
export const INVENTORY_GRAPH_YAML = `metadata:
  graph:
    order:
    - stock
    - weekday
    sales:
    - stock
    - order
    - weekday
    next_stock:
    - stock
    - order
    - sales
  columns:
  - stock_level: { dim: stock, type: continuous, min: 0, max: 60 }
  - weekday: { dim: weekday, type: category, values: [0, 1, 2, 3, 4, 5, 6] }
  - order_qty: { dim: order, type: discrete, min: 0, max: 30, num: 7 }
  - units_sold: { dim: sales, type: continuous, min: 0, max: 60 }
`;

export const INVENTORY_REWARD_PY = `def get_reward(data):
    '''Margin of the day: 3 per unit sold, 1 per unit ordered, 0.1 per unit left (numpy or torch).'''
    order = data['order'][..., 0:1]
    sales = data['sales'][..., 0:1]
    next_stock = data['next_stock'][..., 0:1]
    return 3 * sales - order - 0.1 * next_stock
`;

export const serverPlugin = defineServerPlugin({
  id: 'decisio.template-inventory',
  templates: [
    {
      id: 'inventory',
      industry: 'retail',
      ...templateTexts(bundles),
      colour: 'green',
      task: 'generated (seed 7)',
      data: { file: new URL('../data/inventory.csv', import.meta.url), trajectoryField: 'shop', sequenceField: 'day', datetimeField: 'date' },
      graph: INVENTORY_GRAPH_YAML,
      reward: INVENTORY_REWARD_PY,
      report: inventoryReport,
    },
  ],
});
