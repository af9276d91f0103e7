import { uploadFileType } from '@decisio/domain';
import { issue } from './issues';
import type { DataFileKind, DataIssue } from './types';

/** Bytes to read from the start of a file for {@link detectFileKind}. */
export const MAGIC_BYTES = 4096;

const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  return sig.every((b, i) => bytes[at + i] === b);
}

/** Whether the bytes look like a zip archive (local file header or empty-archive end record). */
export function isZip(head: Uint8Array): boolean {
  return startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]);
}

/**
 * Whether the bytes hold an HDF5 signature. The superblock sits at 0, 512, 1024, 2048, ...;
 * only offsets inside `head` are checked.
 */
export function isHdf5(head: Uint8Array): boolean {
  for (let at = 0; at + 8 <= head.length; at = at === 0 ? 512 : at * 2) {
    if (startsWith(head, HDF5_SIGNATURE, at)) return true;
  }
  return false;
}

/**
 * Whether the bytes look like text: no NUL byte and valid UTF-8 (a sequence cut at the end of
 * the sample is accepted). GBK and other encodings fail this check.
 */
export function isUtf8Text(head: Uint8Array): boolean {
  let i = 0;
  const n = head.length;
  while (i < n) {
    const b = head[i]!;
    if (b === 0) return false;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const len = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
    if (len === 0 || b > 0xf4) return false;
    for (let k = 1; k < len; k += 1) {
      if (i + k >= n) return true; // cut by the sample
      if ((head[i + k]! & 0xc0) !== 0x80) return false;
    }
    i += len;
  }
  return true;
}

/** Kind by extension, magic-byte check and the issue when they disagree. */
export interface FileKindResult {
  kind: DataFileKind | null;
  issue: DataIssue | null;
}

/**
 * Detects the kind of a dataset file from its name and first bytes: the extension decides the
 * kind (csv, npz, h5) and the bytes must match it (zip for npz, HDF5 signature for h5, UTF-8
 * text for csv). An unknown extension or a mismatch gives a `tableFileFormatError` issue.
 */
export function detectFileKind(name: string, head: Uint8Array): FileKindResult {
  const kind = uploadFileType(name);
  if (kind === null) {
    return { kind: null, issue: issue('unknownType', `unsupported file type: ${name}`, { accepted: ['csv', 'npz', 'h5'] }) };
  }
  if (head.length === 0) return { kind, issue: null };
  const ok = kind === 'npz' ? isZip(head) : kind === 'h5' ? isHdf5(head) : !isZip(head) && !isHdf5(head) && isUtf8Text(head);
  if (ok) return { kind, issue: null };
  const seen = isZip(head) ? 'zip' : isHdf5(head) ? 'hdf5' : isUtf8Text(head) ? 'text' : 'binary';
  const reason = kind === 'csv' && seen === 'binary' ? 'encoding' : 'magic';
  return {
    kind,
    issue: issue(reason, `the content of ${name} is ${seen}, not ${kind}`, { expected: kind, found: seen }),
  };
}
