/** The inventory template's report renderer: how the logged ordering did, measured on the data. */
import { templateText, type ServerTemplateTable, type TemplateReport } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The reward of one day (mirrors `reward.py`): `3 · sales − order − 0.1 · next stock`. */
export function inventoryReward(sold: number, order: number, nextStock: number): number {
  return 3 * sold - order - 0.1 * nextStock;
}

/** Mean margin and order per shop-day, and the share of days that sold out. */
export function inventoryReport(table: ServerTemplateTable): TemplateReport {
  const order = table.numbers('order_qty');
  const sold = table.numbers('units_sold');
  const next = table.numbers('next_stock_level');
  const text = (key: string) => templateText(bundles, `report.${key}`);
  return {
    title: text('title'),
    basis: templateText(bundles, 'report.basis', { rows: table.rows.length, shops: table.trajectories.length }),
    figures: [
      { id: 'meanMargin', label: text('meanMargin'), value: mean(sold.map((s, i) => inventoryReward(s, order[i]!, next[i]!))), digits: 2 },
      { id: 'meanOrder', label: text('meanOrder'), value: mean(order), digits: 2 },
      { id: 'lostSalesShare', label: text('lostSalesShare'), value: (100 * next.filter((n) => n === 0).length) / next.length, unit: '%', digits: 1 },
    ],
  };
}
