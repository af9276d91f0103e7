/**
 * YAML build: a REVIVE YAML file plus the Python files it references (same file names). The
 * YAML is read first; a referenced file that was not uploaded stops the build (spec workflow
 * §5 "YAML file required; the Python file it references must be uploaded with the same
 * filename").
 */
import { useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FileInput, FormGroup } from '@blueprintjs/core';
import { Dialog } from '@decisio/sdk-plugin';
import type { PatternEditor } from '../model/editor';
import { PatternYamlError, importReviveYaml } from '../model/yaml';
import { usePatternT } from '../i18n';

export interface YamlDialogProps {
  editor: PatternEditor;
  isOpen: boolean;
  onClose(): void;
  /** Called after a successful build with the YAML file's name and the import warnings. */
  onBuilt(fileName: string, warnings: string[]): void;
}

async function readAll(list: FileList | null): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of Array.from(list ?? [])) out[f.name] = await f.text();
  return out;
}

export function YamlDialog(props: YamlDialogProps) {
  const { t } = usePatternT();
  const [yaml, setYaml] = useState<{ name: string; text: string } | undefined>();
  const [py, setPy] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();

  const build = () => {
    if (!yaml) {
      setError(t('yaml.required'));
      return;
    }
    try {
      const probe = importReviveYaml(yaml.text);
      const missing = probe.files.filter((f) => py[f] === undefined);
      if (missing.length > 0) {
        setError(t('yaml.missing', { files: missing.join(', ') }));
        return;
      }
      const r = props.editor.importYaml(yaml.text, py);
      setError(undefined);
      props.onBuilt(yaml.name, r.warnings);
      setYaml(undefined);
      setPy({});
    } catch (e) {
      if (e instanceof PatternYamlError) setError(t(`yamlErrors.${e.code}`, e.params));
      else setError(String((e as Error).message ?? e));
    }
  };

  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={t('yaml.title')} icon="import">
      <DialogBody>
        <p>{t('yaml.description')}</p>
        <FormGroup label={t('yaml.yamlFile')} labelFor="pattern-yaml-file">
          <FileInput
            fill
            text={yaml?.name ?? t('yaml.choose')}
            buttonText={t('yaml.choose')}
            inputProps={{ id: 'pattern-yaml-file', accept: '.yaml,.yml', 'aria-label': t('yaml.yamlFile'), ...({ 'data-testid': 'pattern-yaml-input' } as object) }}
            onInputChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) void f.text().then((text) => setYaml({ name: f.name, text }));
            }}
          />
        </FormGroup>
        <FormGroup label={t('yaml.pyFiles')} labelFor="pattern-py-files">
          <FileInput
            fill
            text={Object.keys(py).join(', ') || t('yaml.choose')}
            buttonText={t('yaml.choose')}
            inputProps={{ id: 'pattern-py-files', accept: '.py', multiple: true, 'aria-label': t('yaml.pyFiles'), ...({ 'data-testid': 'pattern-py-input' } as object) }}
            onInputChange={(e) => void readAll(e.currentTarget.files).then(setPy)}
          />
        </FormGroup>
        {error && (
          <Callout intent="danger" compact data-testid="pattern-yaml-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('yaml.cancel')} onClick={props.onClose} />
            <Button intent="primary" text={t('yaml.build')} data-testid="pattern-yaml-build" onClick={build} />
          </>
        }
      />
    </Dialog>
  );
}
