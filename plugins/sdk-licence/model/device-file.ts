/**
 * Checks of the offline licence's device file before it is sent (spec platform §5: not empty, at
 * most 1 MB, a name of at most 50 characters); the server checks the same again.
 */
import { LIMITS } from '@decisio/domain';

/** Why a device file is refused, or `null` when it is fine. */
export type DeviceFileProblem = 'empty' | 'tooLarge' | 'nameTooLong' | null;

export function deviceFileProblem(file: { name: string; size: number }): DeviceFileProblem {
  if (file.size === 0) return 'empty';
  if (file.size > LIMITS.deviceFileMaxBytes) return 'tooLarge';
  if (file.name.length > LIMITS.fileNameMax) return 'nameTooLong';
  return null;
}

/** The bytes as base64 (the call's `deviceFile.content`). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
