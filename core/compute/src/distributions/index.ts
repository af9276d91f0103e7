/** Distributions for policies and world models. */
export * from './distributions.ts';
