import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Blueprint's Dialog and Alert, and a Blueprint Button with `loading`: what the SDK's versions replace. */
const TEXT = `import { Alert, Button, Dialog } from '@blueprintjs/core';
export const A = () => <Dialog isOpen />;
export const B = () => <Alert isOpen />;
export const C = () => <Button loading />;
`;

describe("the SDK's Dialog, Alert and BusyButton instead of Blueprint's (eslint.config.js)", () => {
  it('are required in plugins and in the workbench, which may import the SDK, and nowhere else', async () => {
    const eslint = new ESLint({ cwd: root });
    const refused = async (file: string) => {
      const [result] = await eslint.lintText(TEXT, { filePath: path.join(root, file) });
      return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => `${m.line}:${m.ruleId}`);
    };
    const all = ['1:no-restricted-imports', '1:no-restricted-imports', '4:no-restricted-syntax'];
    expect(await refused('plugins/projects/fixture.tsx')).toEqual(all);
    expect(await refused('core/workbench/src/shell/fixture.tsx')).toEqual(all);
    // The SDK draws them itself.
    expect(await refused('sdk-plugin/src/fixture.tsx')).toEqual([]);
  });
});
