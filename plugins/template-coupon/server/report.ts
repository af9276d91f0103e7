/** The coupon template's report renderer: how the logged pricing and ordering did, measured on the data. */
import { templateText, type ServerTemplateTable, type TemplateReport } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { couponReward } from './graph';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Mean profit, sales and price per store-day, and the share of days that ended out of stock. */
export function couponReport(table: ServerTemplateTable): TemplateReport {
  const price = table.numbers('price');
  const order = table.numbers('order_quantity');
  const sold = table.numbers('units_sold');
  const next = table.numbers('next_stock_level');
  const text = (key: string) => templateText(bundles, `report.${key}`);
  return {
    title: text('title'),
    basis: templateText(bundles, 'report.basis', { rows: table.rows.length, stores: table.trajectories.length }),
    figures: [
      { id: 'meanProfit', label: text('meanProfit'), value: mean(price.map((p, i) => couponReward(p, order[i]!, sold[i]!, next[i]!))), digits: 2 },
      { id: 'meanSales', label: text('meanSales'), value: mean(sold), digits: 2 },
      { id: 'meanPrice', label: text('meanPrice'), value: mean(price), digits: 2 },
      { id: 'stockOutShare', label: text('stockOutShare'), value: (100 * next.filter((n) => n === 0).length) / next.length, unit: '%', digits: 1 },
    ],
  };
}
