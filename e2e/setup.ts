/**
 * Runs in every spec file: a test fails when the pages it drove broke the Content-Security-Policy
 * (see fixtures/csp.ts); violations seen after a file's last test fail its teardown.
 */
import { afterAll, afterEach } from 'vitest';
import { takeCspViolations } from './fixtures/csp';

function check(): void {
  const seen = takeCspViolations();
  if (seen.length > 0) throw new Error(`Content-Security-Policy violations:\n${seen.join('\n')}`);
}

afterEach(async () => {
  // Console messages of the last step arrive asynchronously.
  await new Promise((r) => setTimeout(r, 100));
  check();
});
afterAll(check);
