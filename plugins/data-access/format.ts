/** Small display helpers of the plugin. */
export { failureMessage, formatBytes } from '@decisio/sdk-plugin';

/** A cell of a preview as text. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return String(v);
}
