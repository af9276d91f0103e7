/** The feedback-control trial (encoder, PID-style response model, PID controller): see trial.ts. */
export * from './data.ts';
export * from './model.ts';
export * from './trial.ts';
export * from './synthetic.ts';
