/** Serialisation: the versioned weights format and ONNX export. */
export * from './weights.ts';
export * from './onnx.ts';
