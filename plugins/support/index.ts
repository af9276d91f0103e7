/**
 * The support plugin (issue 18): the public contact-us form (`/contact-us`) and support tickets
 * (`/support`): a user files and follows tickets; an administrator (`support:write`) sees every
 * ticket of the tenant and answers it, which sends the author a message. Administrators with
 * `contacts:read` list the contact form's entries (`/admin/contacts`) and, with
 * `contacts:write`, mark them handled. Manifest only.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { supportEndpoints } from './api';

/** Signed in with the permission to answer tickets (the server checks anyway). */
export const canAnswer = (c: WhenContext) => Boolean(c.signedIn && c.user?.permissions?.some((p) => p === '*' || p === 'support:write'));
/** Signed in with the permission to read the contact form's entries (the server checks anyway). */
export const canReadContacts = (c: WhenContext) => Boolean(c.signedIn && c.user?.permissions?.some((p) => p === '*' || p === 'contacts:read'));

export const supportPlugin = definePlugin({
  id: 'support',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: supportEndpoints,
  routes: [
    { path: '/contact-us', titleKey: 'contact.title', public: true, load: () => import('./panels/ContactPanel').then((m) => m.ContactPanel) },
    { path: '/support', titleKey: 'tickets.title', panels: ['support.tickets'] },
    { path: '/admin/contacts', titleKey: 'contacts.title', panels: ['support.contacts'] },
  ],
  panels: [
    { id: 'support.tickets', titleKey: 'tickets.title', icon: 'help', load: () => import('./panels/TicketsPanel').then((m) => m.TicketsPanel) },
    { id: 'support.contacts', titleKey: 'contacts.title', icon: 'inbox', load: () => import('./panels/ContactsAdminPanel').then((m) => m.ContactsAdminPanel) },
  ],
  menuItems: [
    { id: 'support.menu', titleKey: 'tickets.menu', location: 'side', icon: 'help', to: '/support', order: 92, when: (c) => c.signedIn },
    { id: 'support.user', titleKey: 'tickets.menu', location: 'user', icon: 'help', to: '/support', order: 40 },
    { id: 'support.contacts-menu', titleKey: 'contacts.menu', location: 'side', icon: 'inbox', to: '/admin/contacts', order: 97, when: canReadContacts },
  ],
  commands: [
    openPageCommand({ id: 'support.open', titleKey: 'tickets.command', to: '/support', icon: 'help', keywords: ['ticket', 'feedback', 'help', 'work order'] }),
    openPageCommand({ id: 'support.contact', titleKey: 'contact.command', to: '/contact-us', icon: 'envelope', keywords: ['contact', 'sales', 'email'] }),
    openPageCommand({ id: 'support.contacts', titleKey: 'contacts.command', to: '/admin/contacts', icon: 'inbox', keywords: ['admin', 'contact', 'contact form', 'leads', 'messages', 'handled'], when: canReadContacts }),
  ],
});
