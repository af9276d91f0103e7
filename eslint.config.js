import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { checkImport, checkTemplateImport } from './scripts/boundaries.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Local rule: the architecture's dependency direction (see scripts/boundaries.mjs). */
const boundaries = {
  meta: { type: 'problem', schema: [], messages: { wrong: '{{text}}' } },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join('/');
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const text = checkImport(rel, source.value);
      if (text) context.report({ node, messageId: 'wrong', data: { text } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
    };
  },
};

/**
 * Local rule: industry template plugins (`plugins/template-*`) import only `@decisio/sdk-plugin`,
 * `@decisio/domain` and their own files, as a third party would (scripts/boundaries.mjs,
 * `checkTemplateImport`; test: scripts/template-imports.test.ts).
 */
const templateImports = {
  meta: { type: 'problem', schema: [], messages: { wrong: '{{text}}' } },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join('/');
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const text = checkTemplateImport(rel, source.value);
      if (text) context.report({ node, messageId: 'wrong', data: { text } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
    };
  },
};

export default [
  { ignores: ['**/node_modules/**', 'dist/**', '.data/**', 'e2e/artifacts/**', '**/*.generated.ts', '**/generated/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { decisio: { rules: { boundaries, 'template-imports': templateImports } } },
    rules: {
      'decisio/boundaries': 'error',
      'decisio/template-imports': 'error',
      'no-debugger': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip|todo)$/]",
          message: 'No focused or skipped tests.',
        },
      ],
    },
  },
  {
    // Plugins and the workbench (which may import the SDK: core/workbench -> sdk-plugin) draw busy
    // buttons, dialogs and alerts with the SDK's versions, which keep the focus where a keyboard
    // user can go on (sdk-plugin/src/react.tsx).
    files: ['plugins/**/*.ts', 'plugins/**/*.tsx', 'plugins/**/*.mts', 'core/workbench/**/*.ts', 'core/workbench/**/*.tsx', 'core/workbench/**/*.mts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@blueprintjs/core',
              importNames: ['Dialog'],
              message:
                "Use Dialog from '@decisio/sdk-plugin': Blueprint's Dialog that also gives the focus back to its opener when a dialog rendered only while open goes.",
            },
            {
              name: '@blueprintjs/core',
              importNames: ['Alert'],
              message:
                "Use Alert from '@decisio/sdk-plugin': Blueprint's Alert that opens with the focus on Cancel (else its confirm button) and takes it back to the confirm button when loading ends.",
            },
            {
              name: '@blueprintjs/core',
              importNames: ['NumericInput'],
              message:
                "Use NumericInput from '@decisio/sdk-plugin': Blueprint's NumericInput whose stepper buttons are named in the interface language (Blueprint's are English).",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip|todo)$/]",
          message: 'No focused or skipped tests.',
        },
        {
          selector: "JSXOpeningElement[name.name=/^(Button|AnchorButton)$/]:has(> JSXAttribute[name.name='loading'])",
          message:
            "Use BusyButton from '@decisio/sdk-plugin' for a button with `loading`: a loading Blueprint button is disabled and drops the focus to the page; BusyButton takes it back when loading ends.",
        },
      ],
    },
  },
];
