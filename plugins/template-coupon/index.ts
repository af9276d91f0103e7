/**
 * The coupon industry template (pricing and ordering), written only against
 * `@decisio/sdk-plugin` and `@decisio/domain` as a third party would. Client part (this
 * manifest): the template's texts in both languages and a palette command to its industry in
 * the template centre. Server part (`server/index.ts`, found through `package.json`): the data
 * file, the decision graph, the reward and the report renderer.
 */
import { definePlugin, openPageCommand } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const templateCouponPlugin = definePlugin({
  id: 'template-coupon',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  templates: [{ id: 'template-coupon.coupon', templateId: 'coupon', titleKey: 'template.name', descriptionKey: 'template.description', industry: 'coupon' }],
  commands: [
    openPageCommand({ id: 'template-coupon.open', titleKey: 'commands.open', to: '/template-center/industry/coupon', icon: 'tag', keywords: ['template', 'coupon', 'pricing'], when: (c) => c.signedIn }),
  ],
});
