/** Environment step score, error accumulation and the spec's duration and score buckets. */
export * from './score';
