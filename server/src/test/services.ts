/**
 * Tests that need an outside service (MariaDB, PostgreSQL, Redis) skip with a reason when it
 * is missing: `describe.skipIf(skipWithout('redis', import.meta.url, hasRedis))(...)`. The
 * reason is printed, and recorded for the summary of `npm test` (scripts/test.mjs), which
 * finds or starts the services, sets the `TEST_*` addresses and passes in
 * `DECISIO_TEST_SKIP_LOG` (a file) and `DECISIO_TEST_MISSING_<SERVICE>` (why a service is missing).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Services the suite can use, with the variable that gives each one's address. */
export const TEST_SERVICES = {
  mysql: { name: 'MariaDB', variable: 'TEST_MYSQL_URL' },
  postgres: { name: 'PostgreSQL', variable: 'TEST_POSTGRES_URL' },
  redis: { name: 'Redis', variable: 'TEST_REDIS_URL' },
} as const;
export type TestService = keyof typeof TEST_SERVICES;

/** Why `service` is missing: what `npm test` found, else that its variable is unset or it does not answer. */
export function missingReason(service: TestService): string {
  const { variable } = TEST_SERVICES[service];
  const found = process.env[`DECISIO_TEST_MISSING_${service.toUpperCase()}`];
  if (found) return `${variable}: ${found}`;
  const url = process.env[variable];
  return url ? `${variable}: no answer from ${url.replace(/\/\/[^@/]*@/, '//')}` : `${variable} is not set`;
}

/**
 * True (skip) when `service` is not available (`available` false; by default whether its
 * `TEST_*` variable is set). Records the skip and its reason for `npm test`'s summary.
 */
export function skipWithout(service: TestService, file: string, available = Boolean(process.env[TEST_SERVICES[service].variable])): boolean {
  if (available) return false;
  const reason = missingReason(service);
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const log = process.env.DECISIO_TEST_SKIP_LOG;
  if (log) fs.appendFileSync(log, `${JSON.stringify({ file: path, service, name: TEST_SERVICES[service].name, reason })}\n`);
  else console.warn(`skipped: ${TEST_SERVICES[service].name} tests of ${path} (${reason})`);
  return true;
}
