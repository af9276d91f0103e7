import { ErrorCode, type ErrorCodeName } from '@decisio/domain';
import type { DataIssue, DataIssueReason } from './types';

const CODE_OF: Record<DataIssueReason, ErrorCodeName> = {
  empty: 'datasetEmpty',
  delimiter: 'tableFileFormatError',
  encoding: 'tableFileFormatError',
  parse: 'tableFileFormatError',
  magic: 'tableFileFormatError',
  unknownType: 'tableFileFormatError',
  npyHeader: 'tableFileFormatError',
  npyDtype: 'tableFileFormatError',
  zip: 'tableFileFormatError',
  h5: 'tableFileFormatError',
  revive: 'tableFileFormatError',
  duplicateColumns: 'tableRepeatedColumns',
  nameTooLong: 'tableParamError',
  nameChars: 'tableParamError',
  tooLarge: 'tableParamError',
};

/** The catalogue's error code for an issue reason. */
export function codeOf(reason: DataIssueReason): ErrorCodeName {
  return CODE_OF[reason];
}

/** Builds a {@link DataIssue}; issues are fatal unless `fatal: false` is given. */
export function issue(
  reason: DataIssueReason,
  message: string,
  details?: Record<string, unknown>,
  fatal = true,
): DataIssue {
  const code = CODE_OF[reason];
  return { code, value: ErrorCode[code], reason, message, fatal, ...(details ? { details } : {}) };
}

/** Error carrying a {@link DataIssue}; thrown by parsers, caught by operations. */
export class DataIssueError extends Error {
  readonly issue: DataIssue;
  constructor(reason: DataIssueReason, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DataIssueError';
    this.issue = issue(reason, message, details);
  }
}

/** Converts anything thrown into an issue (a {@link DataIssueError}'s own, else `fallback`). */
export function toIssue(e: unknown, fallback: DataIssueReason): DataIssue {
  if (e instanceof DataIssueError) return e.issue;
  const message = e instanceof Error ? e.message : String(e);
  return issue(fallback, message);
}
