import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineServerPlugin } from '@decisio/sdk-plugin/server';
import { databases, startTestServer, type TestServer } from '../test/server';
import { discoverServerPlugins, WORKSPACE_PLUGINS_DIR } from './discover';
import { parsePlainCsv } from './files';

/** A folder of plugin folders: name -> files (path -> text). */
function pluginsFolder(dirs: Record<string, Record<string, string>>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-plugins-'));
  for (const [dir, files] of Object.entries(dirs)) {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, dir, file)), { recursive: true });
      fs.writeFileSync(path.join(root, dir, file), text);
    }
  }
  return root;
}

const entry = (id: string) => `export const serverPlugin = { id: '${id}', routes: null, migrations: [], seeds: [], jobKinds: [], templates: [] };\n`;

describe('server plugin discovery', () => {
  it('loads the plugin folders whose package.json names a server entry, in folder order', async () => {
    const root = pluginsFolder({
      'b-second': { 'package.json': '{"decisio":{"server":"./server.mjs"}}', 'server.mjs': entry('acme.second') },
      'a-first': { 'package.json': '{"decisio":{"server":"./srv/index.mjs"}}', 'srv/index.mjs': entry('acme.first') },
      'c-client-only': { 'package.json': '{"name":"@decisio/plugin-c"}' },
      'd-no-package': { 'index.ts': '' },
    });
    expect((await discoverServerPlugins(root)).map((p) => p.id)).toEqual(['acme.first', 'acme.second']);
    expect(await discoverServerPlugins(path.join(root, 'missing'))).toEqual([]);
  });

  it('fails loudly on an entry that exports no server plugin or is not a relative path', async () => {
    const bad = pluginsFolder({ x: { 'package.json': '{"decisio":{"server":"./server.mjs"}}', 'server.mjs': 'export const plugin = {};\n' } });
    await expect(discoverServerPlugins(bad)).rejects.toThrow(/plugins\/x: \.\/server\.mjs must export serverPlugin/);
    const absolute = pluginsFolder({ y: { 'package.json': '{"decisio":{"server":"/etc/server.mjs"}}' } });
    await expect(discoverServerPlugins(absolute)).rejects.toThrow(/decisio.server must be a relative path/);
  });

  it('finds the workspace\'s template plugins', async () => {
    const ids = (await discoverServerPlugins(WORKSPACE_PLUGINS_DIR)).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['decisio.template-coupon', 'decisio.template-electric', 'decisio.template-inventory']));
  });

  it('reads plain CSV and names a short row', () => {
    expect(parsePlainCsv('a,b\r\n1,2\n3,4\n\n')).toEqual({ columns: ['a', 'b'], rows: [['1', '2'], ['3', '4']] });
    expect(() => parsePlainCsv('a,b\n1,2\n3\n', 'x.csv')).toThrow('x.csv: line 3 has 1 cells, the header 2');
    expect(() => parsePlainCsv('', 'x.csv')).toThrow(/names no columns/);
  });
});

describe.each(databases)('seeds with data files on %s', (kind) => {
  let server: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-seed-'));
  fs.writeFileSync(path.join(dir, 'shops.csv'), 'id,name,size\nS1,North,12\nS2,South,30\n');
  const seen: string[] = [];
  const plugin = defineServerPlugin({
    id: 'acme.shops',
    migrations: [
      {
        name: '20261201000000_create_acme_shops',
        up: (knex) =>
          knex.schema.createTable('acme_shops', (t) => {
            t.string('id', 32).primary();
            t.string('name', 50).notNullable();
            t.integer('size').notNullable();
          }),
        down: (knex) => knex.schema.dropTable('acme_shops'),
      },
    ],
    seeds: [
      {
        name: 'shops',
        files: { shops: pathToFileURL(path.join(dir, 'shops.csv')) },
        async run(knex, files) {
          const { columns, rows } = await files.csv('shops');
          seen.push((await files.text('shops')).split('\n')[0]!, String((await files.bytes('shops')).length));
          await expect(files.text('other')).rejects.toThrow(/no file named "other"/);
          await knex('acme_shops').insert(rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, c === 'size' ? Number(r[i]) : r[i]]))));
        },
      },
    ],
  });

  beforeAll(async () => {
    server = await startTestServer(kind, { plugins: [plugin] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('runs the seed once with the files it declared, read by the host', async () => {
    expect(await server.app.db.knex('acme_shops').orderBy('id')).toEqual([
      { id: 'S1', name: 'North', size: 12 },
      { id: 'S2', name: 'South', size: 30 },
    ]);
    expect(seen).toEqual(['id,name,size', String(fs.statSync(path.join(dir, 'shops.csv')).size)]);
    expect(await server.app.migrate()).toEqual([]);
    expect(await server.app.db.knex('acme_shops')).toHaveLength(2);
  });

  it('refuses a seed file that is not a URL when the plugin is defined', () => {
    expect(() => defineServerPlugin({ id: 'acme.bad', seeds: [{ name: 's', files: { f: 'x.csv' as unknown as URL }, run: async () => undefined }] })).toThrow(/file "f" of seed "s" must be a URL/);
  });
});
