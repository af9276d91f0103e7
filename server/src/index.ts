/** `@decisio/server`: the composition root and its configuration, for `npm start`, e2e and tests. */
export { createApp, type AppOptions, type DecisioApp } from './app';
export { loadConfig, type ServerConfig, type LogLevel } from './config';
export { createLogger, type Logger } from './logger';
export { migrateLatest, migrationHistory } from './db/migrator';
export { Database, parseDatabaseUrl, type DatabaseKind } from './db/database';
