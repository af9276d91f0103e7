/**
 * Monaco, bundled locally (never from a CDN): the editor API, Python highlighting and the
 * editor worker built by Vite (`?worker`). Loaded only through `import('./monaco')`.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/languages/definitions/python/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

const g = globalThis as { MonacoEnvironment?: { getWorker: () => Worker } };
g.MonacoEnvironment ??= { getWorker: () => new EditorWorker() };

export { monaco };
