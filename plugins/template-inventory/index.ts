/**
 * The retail restocking template (client part): its texts in both languages and a palette
 * command to its industry in the template centre. Written only against `@decisio/sdk-plugin`,
 * following `sdk-plugin/README.md`.
 */
import { definePlugin, openPageCommand } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const templateInventoryPlugin = definePlugin({
  id: 'template-inventory',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  templates: [{ id: 'template-inventory.inventory', templateId: 'inventory', titleKey: 'template.name', descriptionKey: 'template.description', industry: 'retail' }],
  commands: [
    openPageCommand({ id: 'template-inventory.open', titleKey: 'commands.open', to: '/template-center/industry/retail', icon: 'shop', keywords: ['template', 'retail', 'inventory', 'restocking'], when: (c) => c.signedIn }),
  ],
});
