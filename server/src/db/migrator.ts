import type { Knex } from 'knex';
import type { ServerPlugin } from '@decisio/sdk-plugin/server';
import { seedFiles } from '../plugins/files';
import type { Database } from './database';
import { coreMigrations, type NamedMigration } from './migrations';

/**
 * The full history: core migrations first, then each plugin's migrations (named
 * `<pluginId>/<name>`) followed by its seeds (`<pluginId>/seed_<name>`), in plugin order.
 */
export function migrationHistory(plugins: readonly ServerPlugin[]): NamedMigration[] {
  const all: NamedMigration[] = [...coreMigrations];
  for (const p of plugins) {
    for (const m of p.migrations) {
      all.push({
        name: `${p.id}/${m.name}`,
        up: async (knex) => m.up(knex),
        down: async (knex) => (m.down ? m.down(knex) : undefined),
      });
    }
    for (const s of p.seeds) {
      all.push({ name: `${p.id}/seed_${s.name}`, up: async (knex) => s.run(knex, seedFiles(p.id, s.name, s.files)), down: async () => undefined });
    }
  }
  const seen = new Set<string>();
  for (const m of all) {
    if (seen.has(m.name)) throw new Error(`Duplicate migration name "${m.name}"`);
    seen.add(m.name);
  }
  return all;
}

function sourceOf(history: NamedMigration[]): Knex.MigrationSource<NamedMigration> {
  return {
    getMigrations: async () => history,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => m,
  };
}

/** Runs every pending migration; resolves with the names it ran. */
export async function migrateLatest(db: Database, plugins: readonly ServerPlugin[] = []): Promise<string[]> {
  const [, ran] = (await db.knex.migrate.latest({
    migrationSource: sourceOf(migrationHistory(plugins)),
    tableName: 'knex_migrations',
  })) as [number, string[]];
  return ran;
}

/** Rolls back every migration (tests and local resets only). */
export async function rollbackAll(db: Database, plugins: readonly ServerPlugin[] = []): Promise<void> {
  await db.knex.migrate.rollback({ migrationSource: sourceOf(migrationHistory(plugins)), tableName: 'knex_migrations' }, true);
}
