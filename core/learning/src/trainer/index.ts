/** The trainer contract, stop conditions and the generic runner. */
export * from './contract';
/** Tensor summaries of the networks a trainer trains (the debug page). */
export * from './tensors';
