/** All ops of the compute core (each family specified once in its own file). */
export * from './elementwise.ts';
export * from './reduce.ts';
export * from './softmax.ts';
export * from './shape.ts';
export * from './matmul.ts';
export * from './linear.fused.ts';
export * from './layernorm.ts';
export * from './random.ts';
export { broadcastShapes, normAxes, unbroadcast } from './util.ts';
