/** The electric template's report renderer: how the logged controller did, measured on the data. */
import { templateText, type ServerTemplateTable, type TemplateReport } from '@decisio/sdk-plugin/server';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { electricReward, TARGET_TEMPERATURE } from './graph';

const bundles = { 'zh-CN': zhCN, 'en-US': enUS };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Mean reward, temperature deviation, power and door-open share of every logged quarter-hour. */
export function electricReport(table: ServerTemplateTable): TemplateReport {
  const next = table.numbers('next_obs_temp');
  const power = table.numbers('power_action');
  const door = table.numbers('factor_door_state');
  const text = (key: string) => templateText(bundles, `report.${key}`);
  return {
    title: text('title'),
    basis: templateText(bundles, 'report.basis', { rows: table.rows.length, rooms: table.trajectories.length }),
    figures: [
      { id: 'meanReward', label: text('meanReward'), value: mean(next.map((t, i) => electricReward(t, power[i]!))), digits: 3 },
      { id: 'meanDeviation', label: text('meanDeviation'), value: mean(next.map((t) => Math.abs(t - TARGET_TEMPERATURE))), unit: '°C', digits: 3 },
      { id: 'meanPower', label: text('meanPower'), value: mean(power), digits: 3 },
      { id: 'doorOpenShare', label: text('doorOpenShare'), value: (100 * door.filter((d) => d > 0.5).length) / door.length, unit: '%', digits: 1 },
    ],
  };
}
