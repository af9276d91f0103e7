/** The trainer contract, stop conditions and the generic runner. */
export * from './contract';
