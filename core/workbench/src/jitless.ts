/**
 * Zod parses without generated code: by default it probes `new Function('')` once to decide
 * whether it may compile parsers, and under the Content-Security-Policy (no 'unsafe-eval') that
 * probe is reported as a violation even though its failure is caught. Imported first by
 * `main.tsx`, before any schema runs.
 */
import { config } from 'zod';

config({ jitless: true });
