/**
 * REVIVE-compatible YAML import and export of the decision graph. The mapping lives in
 * `@decisio/domain` (`graph/yaml.ts`), shared with the workbench's graph editor; here its
 * `GraphYamlError`s become the engine's {@link LearningError} with the same `yaml.*` codes.
 */
import {
  GraphYamlError,
  importReviveYaml as importGraphYaml,
  type ImportYamlOptions,
  type ImportYamlResult,
} from '@decisio/domain';
import { LearningError } from '../errors';

export { BUILTIN_MODULE, exportReviveYaml, type ExportYamlResult, type ImportYamlOptions, type ImportYamlResult } from '@decisio/domain';

/** Parses REVIVE YAML text into a graph document. Throws {@link LearningError} `yaml.*`. */
export function importReviveYaml(text: string, options: ImportYamlOptions = {}): ImportYamlResult {
  try {
    return importGraphYaml(text, options);
  } catch (err) {
    if (err instanceof GraphYamlError) throw new LearningError(err.code, err.params);
    throw err;
  }
}
