import { LOG_LEVELS, type LogLevel } from './config';

/** Structured logger: one JSON line per entry on stdout (debug, info) or stderr (warn, error). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A line sink, so tests can capture what is logged. */
export type LogSink = (level: Exclude<LogLevel, 'silent'>, line: string) => void;

const defaultSink: LogSink = (level, line) => {
  if (level === 'warn' || level === 'error') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
};

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** Creates a logger that drops entries below `level`. */
export function createLogger(level: LogLevel, sink: LogSink = defaultSink): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const make =
    (lvl: Exclude<LogLevel, 'silent'>) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LOG_LEVELS.indexOf(lvl) < min) return;
      const entry: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg };
      for (const [k, v] of Object.entries(fields)) entry[k] = serialise(v);
      sink(lvl, JSON.stringify(entry));
    };
  return { debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}
