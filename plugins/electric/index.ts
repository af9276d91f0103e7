/**
 * The public electric demo (spec platform §1 public routes): `/electric` (what it is),
 * `/electric/330` and `/electric/600` (a demonstration cold room's logged temperature and pump
 * power, and a decision for an over-temperature state), `/electric/330|600/result` (the
 * decision's forecast and its comparison in the simulator), `/electric/connect` (contact form).
 * No account needed. Manifest only: the pages load with `import()`.
 */
import { definePlugin, openPageCommand } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { electricEndpoints } from './api';

const pages = () => import('./panels/ElectricPages');

export const ELECTRIC_COMMANDS = [openPageCommand({ id: 'electric.open-demo', titleKey: 'commands.demo', to: '/electric', icon: 'flash', keywords: ['electric', 'cold room', 'demo', '电力', '冷库'] })];

export const electricPlugin = definePlugin({
  id: 'electric',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: electricEndpoints,
  routes: [
    { path: '/electric', titleKey: 'title', public: true, load: () => pages().then((m) => m.ElectricHomePage) },
    { path: '/electric/330', titleKey: 'room330', public: true, load: () => pages().then((m) => m.ElectricRoom330Page) },
    { path: '/electric/330/result', titleKey: 'result330', public: true, load: () => pages().then((m) => m.ElectricResult330Page) },
    { path: '/electric/600', titleKey: 'room600', public: true, load: () => pages().then((m) => m.ElectricRoom600Page) },
    { path: '/electric/600/result', titleKey: 'result600', public: true, load: () => pages().then((m) => m.ElectricResult600Page) },
    { path: '/electric/connect', titleKey: 'connect', public: true, load: () => pages().then((m) => m.ElectricConnectPage) },
  ],
  commands: ELECTRIC_COMMANDS,
});
