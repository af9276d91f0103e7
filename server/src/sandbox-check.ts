/**
 * Start-up check of the user code sandbox (server and `npm run worker`): a typo in
 * `DECISIO_SANDBOX` stops the start; the `unsafe-none` opt-out is logged as a warning; a
 * machine where bubblewrap cannot start is told that user code will be refused, and why.
 */
import { UNSAFE_WARNING, defaultPython, probeSandbox, sandboxMode } from '@decisio/learning/sandbox';
import type { Logger } from './logger';

export async function checkSandbox(logger: Logger): Promise<void> {
  if (sandboxMode() === 'unsafe-none') {
    logger.warn(UNSAFE_WARNING);
    return;
  }
  const probe = await probeSandbox(defaultPython());
  if (!probe.ok) {
    logger.warn('user code (rewards, node and expert functions) will be refused: the bubblewrap sandbox cannot start here; install the bubblewrap package (apt-get install bubblewrap)', {
      detail: probe.detail,
    });
  }
}
