import { isApiError } from '@decisio/sdk-plugin';

/**
 * What a form shows for a failed call: field errors from the server's `errors` map, or one
 * message (unless the workbench already showed a toast for it, e.g. a sign-out code).
 */
export function describeFailure(err: unknown, fallback: string): { fields: Record<string, string>; message: string | null } {
  if (!isApiError(err)) return { fields: {}, message: fallback };
  const fields = err.errors ?? {};
  if (err.handled) return { fields, message: null };
  return { fields, message: Object.keys(fields).length > 0 ? null : err.message || fallback };
}

/**
 * Portal class of this plugin's dialogs: lifts them above the dock's split handles, which
 * otherwise sit over the overlay and swallow clicks near a panel border.
 */
export const DIALOG_PORTAL = 'dc-projects-portal';
