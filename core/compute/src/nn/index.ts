/** Layers, modules and losses. */
export * from './module.ts';
export * from './losses.ts';
export * from './frozen.ts';
