import { LIMITS, UPLOAD_MAX_BYTES, UPLOAD_NAME_STEM_PATTERN, splitFileName } from '@decisio/domain';
import { issue } from './issues';
import type { DataIssue } from './types';

/**
 * The upload rules that need no content: file name (at most 50 characters; Chinese or English
 * letters, digits, hyphen, underscore, parentheses, spaces), size (at most 2 GB) and emptiness.
 * The file type is checked by `detectFileKind`.
 */
export function checkFileMeta(name: string, size: number): DataIssue[] {
  const issues: DataIssue[] = [];
  const length = [...name].length;
  if (length > LIMITS.fileNameMax) {
    issues.push(issue('nameTooLong', `file name has ${length} characters, at most ${LIMITS.fileNameMax}`, { length, max: LIMITS.fileNameMax }));
  }
  const { stem } = splitFileName(name);
  if (!UPLOAD_NAME_STEM_PATTERN.test(stem)) {
    const bad = [...new Set([...stem].filter((c) => !UPLOAD_NAME_STEM_PATTERN.test(c)))];
    issues.push(issue('nameChars', `file name has characters outside the allowed set: ${bad.join(' ')}`, { characters: bad }));
  }
  if (size > UPLOAD_MAX_BYTES) {
    issues.push(issue('tooLarge', `file has ${size} bytes, at most ${UPLOAD_MAX_BYTES}`, { size, max: UPLOAD_MAX_BYTES }));
  }
  if (size === 0) issues.push(issue('empty', 'file is empty'));
  return issues;
}
