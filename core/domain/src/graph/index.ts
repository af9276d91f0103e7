/** Decision graph: document schema, validation rules and issue catalogue. */
export * from './model';
export * from './issues';
export * from './topology';
export * from './validate';
export * from './yaml';
