/**
 * The electric industry template (cold room power control), written only against
 * `@decisio/sdk-plugin` and `@decisio/domain` as a third party would. Client part (this
 * manifest): the template's texts in both languages, a palette command to its industry in
 * the template centre, and the link of its card there to the public demo (`/electric`, plugins/electric). Server part (`server/index.ts`, found through `package.json`): the data
 * file, the decision graph, the reward and the report renderer.
 */
import { definePlugin, openPageCommand } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const templateElectricPlugin = definePlugin({
  id: 'template-electric',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  templates: [{ id: 'template-electric.electric', templateId: 'electric', titleKey: 'template.name', descriptionKey: 'template.description', industry: 'electric', demoPath: '/electric' }],
  commands: [
    openPageCommand({ id: 'template-electric.open', titleKey: 'commands.open', to: '/template-center/industry/electric', icon: 'flash', keywords: ['template', 'electric', 'cold room'], when: (c) => c.signedIn }),
  ],
});
