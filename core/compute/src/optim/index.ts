/** Optimizers, schedules, clipping. */
export * from './optimizers.ts';
