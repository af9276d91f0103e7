/**
 * The messages plugin (issue 18): `/user-center/message` lists what the product told the user
 * (trainings ended or failed, licences expiring or expired, tickets answered, projects shared),
 * and a bell in the console header shows the unread count. Manifest only.
 */
import { definePlugin, openPageCommand } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { messagesEndpoints } from './api';

export const messagesPlugin = definePlugin({
  id: 'messages',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: messagesEndpoints,
  routes: [{ path: '/user-center/message', titleKey: 'title', panels: ['messages.list'] }],
  panels: [{ id: 'messages.list', titleKey: 'panel', icon: 'notifications', load: () => import('./panels/MessagesPanel').then((m) => m.MessagesPanel) }],
  headerItems: [{ id: 'messages.bell', when: (c) => c.signedIn, load: () => import('./panels/MessagesBell').then((m) => m.MessagesBell) }],
  menuItems: [
    { id: 'messages.menu', titleKey: 'menu', location: 'user', icon: 'notifications', to: '/user-center/message', order: 20 },
    { id: 'messages.side', titleKey: 'menu', location: 'side', icon: 'notifications', to: '/user-center/message', order: 90, when: (c) => c.signedIn },
  ],
  commands: [openPageCommand({ id: 'messages.open', titleKey: 'command', to: '/user-center/message', icon: 'notifications', keywords: ['notifications', 'inbox', 'unread'] })],
});
