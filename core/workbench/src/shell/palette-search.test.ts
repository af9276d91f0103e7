import { describe, expect, it } from 'vitest';
import { entryScore, fuzzyScore, searchPalette } from './palette-search';

const entries = [
  { id: 'workflow.open-policy', title: '打开策略列表', otherTitles: ['Open policies'] },
  { id: 'deploy.open-deploy', title: '部署策略', otherTitles: ['Deploy a policy'], keywords: ['service', 'publish'] },
  { id: 'deploy.open-records', title: '打开调用记录', otherTitles: ['Open call records'], keywords: ['calls', 'monitor'] },
  { id: 'environment.new', title: '新建环境训练', otherTitles: ['New environment training'] },
];

describe('palette search', () => {
  it('matches the query’s characters in order, ignoring case and spaces', () => {
    expect(fuzzyScore('dep', 'Deploy a policy')).not.toBeNull();
    expect(fuzzyScore('nwenv', 'New environment training')).not.toBeNull();
    expect(fuzzyScore('new env', 'New environment training')).not.toBeNull();
    expect(fuzzyScore('xyz', 'Deploy a policy')).toBeNull();
    // Order matters: "yold" is not a subsequence of "deploy".
    expect(fuzzyScore('yold', 'deploy')).toBeNull();
  });

  it('ranks a substring above a scattered match and a word start above the middle of a word', () => {
    expect(fuzzyScore('deploy', 'Deploy a policy')!).toBeGreaterThan(fuzzyScore('deploy', 'Develop the plot of a year')!);
    expect(fuzzyScore('pol', 'Deploy a policy')!).toBeGreaterThan(fuzzyScore('pol', 'Xpolar')!);
  });

  it('searches the current language’s title, the other languages’ titles and the keywords', () => {
    expect(searchPalette(entries, '部署').map((e) => e.id)).toEqual(['deploy.open-deploy']);
    expect(searchPalette(entries, 'deploy')[0]!.id).toBe('deploy.open-deploy');
    expect(searchPalette(entries, 'call rec')[0]!.id).toBe('deploy.open-records');
    expect(searchPalette(entries, 'monitor').map((e) => e.id)).toEqual(['deploy.open-records']);
    expect(searchPalette(entries, '环境').map((e) => e.id)).toEqual(['environment.new']);
    expect(entryScore('zzz', entries[0]!)).toBeNull();
  });

  it('ranks CJK titles, which have no spaces, by where the match is and how much of the title it is', () => {
    // the palette's two debug commands, as they are in the Chinese and the English UI
    const debug = [
      { id: 'ssh-terminal.open', title: '打开 SSH 调试终端', otherTitles: ['Open the SSH debug terminal'], keywords: ['ssh', 'terminal', 'shell', 'debug', 'console'] },
      { id: 'environment.open-debug', title: '打开调试页面', otherTitles: ['Open the debug page'], keywords: ['debug'] },
    ];
    expect(searchPalette(debug, '调试')[0]!.id).toBe('environment.open-debug');
    expect(searchPalette(debug, 'debug')[0]!.id).toBe('environment.open-debug');
    const english = debug.map((e) => ({ ...e, title: e.otherTitles[0]!, otherTitles: [e.title] }));
    expect(searchPalette(english, 'debug')[0]!.id).toBe('environment.open-debug');
    // an earlier match ranks higher, a word after a space no longer outweighs it
    expect(fuzzyScore('调试', '打开调试页面')!).toBeGreaterThan(fuzzyScore('调试', '打开 SSH 调试终端')!);
    expect(fuzzyScore('调试', '调试模式的训练')!).toBeGreaterThan(fuzzyScore('调试', '断点调试中')!);
    // at the same place, the match that is more of the title ranks higher
    expect(fuzzyScore('调试', '调试页')!).toBeGreaterThan(fuzzyScore('调试', '调试模式的训练')!);
    expect(fuzzyScore('环境', '环境')!).toBeGreaterThan(fuzzyScore('环境', '环境训练')!);
    // a scattered CJK match still ranks below a contiguous one
    expect(fuzzyScore('打调', '打开调试页面')!).toBeLessThan(fuzzyScore('调试', '打开调试页面')!);
  });

  it('searches the titles of both languages whatever the interface language, the interface’s first', () => {
    // the admin screens and the logs, as the palette lists them in English and in Chinese
    const zh = [
      { id: 'admin.open-users', title: '管理：用户', otherTitles: ['Administration: users'], keywords: ['admin', 'users', 'accounts'] },
      { id: 'admin.open-tenants', title: '管理：租户', otherTitles: ['Administration: tenants'], keywords: ['admin', 'tenants', 'quotas'] },
      { id: 'logs.open', title: '打开系统日志', otherTitles: ['Open the system log'] },
      { id: 'project-log.open', title: '打开项目日志', otherTitles: ['Open the project log'], keywords: ['log', 'history'] },
    ];
    const en = zh.map((e) => ({ ...e, title: e.otherTitles[0]!, otherTitles: [e.title] }));
    // English interface, Chinese query
    expect(searchPalette(en, '用户').map((e) => e.id)).toEqual(['admin.open-users']);
    expect(searchPalette(en, '租户').map((e) => e.id)).toEqual(['admin.open-tenants']);
    expect(searchPalette(en, '日志').map((e) => e.id).sort()).toEqual(['logs.open', 'project-log.open']);
    expect(searchPalette(en, '系统日志')[0]!.id).toBe('logs.open');
    // Chinese interface, English query
    expect(searchPalette(zh, 'tenants').map((e) => e.id)).toEqual(['admin.open-tenants']);
    expect(searchPalette(zh, 'system log')[0]!.id).toBe('logs.open');
    // the same match weighs more in the interface's language than in the other one
    const a = { id: 'a', title: 'Open the log', otherTitles: ['打开日志'] };
    const b = { id: 'b', title: '打开日志', otherTitles: ['Open the log'] };
    expect(searchPalette([b, a], 'open the log').map((e) => e.id)).toEqual(['a', 'b']);
    expect(searchPalette([a, b], '打开日志').map((e) => e.id)).toEqual(['b', 'a']);
  });

  it('ranks a command above the side menu’s “Go to” entry that scores about the same', () => {
    // the admin users' screen and the system log, as the palette lists them (command, then page)
    const users = [
      { id: 'admin.open-users', source: 'command' as const, title: 'Admin: users', otherTitles: ['管理：用户'], keywords: ['admin', 'users', 'accounts'] },
      { id: 'menu:admin.menu-users', source: 'page' as const, title: 'Go to Users', otherTitles: ['前往用户'], keywords: ['/admin/users'] },
    ];
    const logs = [
      { id: 'logs.open', source: 'command' as const, title: '打开系统日志', otherTitles: ['Open the system log'], keywords: ['system log', 'audit', 'log', 'calls'] },
      { id: 'menu:logs.menu', source: 'page' as const, title: '前往系统日志', otherTitles: ['Go to System log'], keywords: ['/system-log'] },
    ];
    // without the sources, the "Go to" titles score a little more
    expect(entryScore('用户', users[1]!)!).toBeGreaterThan(entryScore('用户', users[0]!)!);
    expect(entryScore('system log', logs[1]!)!).toBeGreaterThan(entryScore('system log', logs[0]!)!);
    // English interface, Chinese query; Chinese interface, English query; and in the interface's language
    expect(searchPalette(users, '用户').map((e) => e.id)).toEqual(['admin.open-users', 'menu:admin.menu-users']);
    expect(searchPalette(logs, 'system log').map((e) => e.id)).toEqual(['logs.open', 'menu:logs.menu']);
    expect(searchPalette([...users].reverse(), 'users').map((e) => e.id)).toEqual(['admin.open-users', 'menu:admin.menu-users']);
    expect(searchPalette([...logs].reverse(), '系统日志').map((e) => e.id)).toEqual(['logs.open', 'menu:logs.menu']);
    // a page the query names clearly better still comes first
    const roles = [
      { id: 'admin.open-roles', source: 'command' as const, title: 'Admin: roles', keywords: ['user permissions'] },
      { id: 'menu:admin.menu-users', source: 'page' as const, title: 'Go to Users' },
    ];
    expect(searchPalette(roles, 'users').map((e) => e.id)).toEqual(['menu:admin.menu-users', 'admin.open-roles']);
  });

  it('keeps every entry in its order for an empty query', () => {
    expect(searchPalette(entries, '  ').map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });
});
