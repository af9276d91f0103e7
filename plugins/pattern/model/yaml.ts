/**
 * REVIVE-compatible YAML import and export for the editor: the shared mapping of
 * `@decisio/domain` (`graph/yaml.ts`), also used by the learning engine. Errors are
 * `GraphYamlError` (`PatternYamlError` here) with `yaml.*` codes translated in this plugin's locales.
 */
export {
  BUILTIN_MODULE,
  GraphYamlError as PatternYamlError,
  exportReviveYaml,
  importReviveYaml,
  type ExportYamlResult,
  type GraphYamlErrorCode as PatternYamlErrorCode,
  type ImportYamlOptions,
  type ImportYamlResult,
} from '@decisio/domain';
