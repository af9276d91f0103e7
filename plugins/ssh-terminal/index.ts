/**
 * The SSH debug terminal (spec platform §3): `/ssh` (public address; opening a session needs
 * sign-in), xterm in the browser over a WebSocket to the server's ssh2 client. Manifest only:
 * the page and xterm load with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { sshEndpoints } from './api';

export const sshTerminalPlugin = definePlugin({
  id: 'ssh-terminal',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: sshEndpoints,
  routes: [{ path: '/ssh', titleKey: 'title', public: true, chrome: 'console', load: () => import('./panels/SshPage').then((m) => m.SshPage) }],
  commands: [openPageCommand({ id: 'ssh-terminal.open', titleKey: 'command', to: '/ssh', icon: 'console', keywords: ['ssh', 'terminal', 'shell', 'debug', 'console'], when: (c: WhenContext) => c.signedIn })],
  menuItems: [{ id: 'ssh-terminal.menu', titleKey: 'menu', location: 'side', icon: 'console', to: '/ssh', order: 85 }],
});
