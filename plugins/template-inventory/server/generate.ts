/**
 * The inventory template's data, generated from a fixed seed (`data/inventory.csv` is this
 * function's output; a test checks it): 5 shops × 60 days. Each day starts with the stock left
 * from the day before; the logged policy orders up to about 20 units (in fives, noisy); demand is
 * 10 ± 3 units on weekdays and 4 more on Saturdays and Sundays; sales are capped by the stock
 * plus the order; at most 60 units stay in stock.
 */

/** A small seeded generator (mulberry32): the same seed gives the same data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const INVENTORY_SHOPS = 5;
export const INVENTORY_DAYS = 60;
export const INVENTORY_SEED = 7;
export const INVENTORY_COLUMNS = ['shop', 'day', 'date', 'stock_level', 'weekday', 'order_qty', 'units_sold', 'next_stock_level'] as const;
const START = Date.UTC(2026, 0, 5); // a Monday
const DAY_MS = 86_400_000;
const CAPACITY = 60;

/** The template's table as CSV text (header, then one row per shop-day). */
export function inventoryCsv(seed = INVENTORY_SEED): string {
  const next = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const lines: string[] = [INVENTORY_COLUMNS.join(',')];
  for (let shop = 1; shop <= INVENTORY_SHOPS; shop++) {
    let stock = int(5, 25);
    for (let day = 0; day < INVENTORY_DAYS; day++) {
      const date = new Date(START + day * DAY_MS);
      const weekday = (date.getUTCDay() + 6) % 7; // 0 = Monday
      const order = Math.min(30, Math.max(0, Math.round((20 - stock + int(-6, 6)) / 5) * 5));
      const demand = 10 + (weekday >= 5 ? 4 : 0) + int(-3, 3);
      const sold = Math.min(stock + order, demand);
      const left = Math.min(CAPACITY, stock + order - sold);
      lines.push([shop, day, date.toISOString(), stock, weekday, order, sold, left].join(','));
      stock = left;
    }
  }
  return lines.join('\n') + '\n';
}
