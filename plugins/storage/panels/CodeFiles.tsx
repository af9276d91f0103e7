import { useRef, useState } from 'react';
import { Button, Callout, Classes, DialogBody, DialogFooter, Pre, Spinner } from '@blueprintjs/core';
import { CODE_UPLOAD_MAX_FILES, codeFilePathSchema, LIMITS, type FileItem } from '@decisio/domain';
import { Dialog, BusyButton, failureMessage, useNotify } from '@decisio/sdk-plugin';
import { storageApi } from '../api';
import { formatBytes } from '../format';
import { useStorageT } from '../i18n';

/** A chosen file with the path it is kept under (the folder's relative path, or its name). */
export interface PickedFile {
  path: string;
  size: number;
  text(): Promise<string>;
}

/** Why a set of code files cannot be sent: too many, too large, or paths the server refuses. */
export function checkCodeFiles(files: PickedFile[]): { reason: 'empty' | 'tooMany' | 'tooLarge' | 'badPaths'; paths?: string[] } | null {
  if (files.length === 0) return { reason: 'empty' };
  if (files.length > CODE_UPLOAD_MAX_FILES) return { reason: 'tooMany' };
  if (files.reduce((s, f) => s + f.size, 0) > LIMITS.codeUploadMaxBytes) return { reason: 'tooLarge' };
  const bad = files.filter((f) => !codeFilePathSchema.safeParse(f.path).success).map((f) => f.path);
  return bad.length ? { reason: 'badPaths', paths: bad } : null;
}

/**
 * "Upload code folder" (spec platform §9: 10 MB per file or folder upload): the text files of a
 * chosen folder, kept under their paths in the folder (`file/uploadFileByContent`; a path that
 * exists is overwritten). Checked first: at most 200 files and 10 MB, paths the server accepts.
 */
export function CodeFolderButton({ disabled }: { disabled?: boolean }) {
  const { t } = useStorageT();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [put, state] = storageApi.endpoints['storage/putCode'].useMutation();

  const send = async (picked: PickedFile[]) => {
    const refused = checkCodeFiles(picked);
    if (refused) {
      const message =
        refused.reason === 'badPaths'
          ? t('code.badPaths', { paths: refused.paths!.slice(0, 3).join(', ') })
          : t(`code.${refused.reason}`, { files: CODE_UPLOAD_MAX_FILES, size: formatBytes(LIMITS.codeUploadMaxBytes) });
      notify({ message, intent: 'warning', icon: 'warning-sign' });
      return;
    }
    try {
      const files = await Promise.all(picked.map(async (f) => ({ path: f.path, content: await f.text() })));
      const saved = await put({ files }).unwrap();
      notify({ message: t('code.saved', { count: saved.length }), intent: 'success', icon: 'tick' });
    } catch (err) {
      const message = failureMessage(err, t('code.failed'));
      if (message) notify({ message, intent: 'danger', icon: 'error' });
    }
  };

  return (
    <>
      <BusyButton icon="folder-shared-open" text={t('code.button')} title={t('code.hint')} disabled={disabled} loading={state.isLoading} onClick={() => input.current?.click()} />
      <input
        ref={(el) => {
          input.current = el;
          // Not a React attribute: lets the browser pick a whole folder.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        data-testid="storage-code-input"
        onChange={(e) => {
          const list = Array.from(e.target.files ?? []);
          e.target.value = '';
          void send(list.map((f) => ({ path: f.webkitRelativePath || f.name, size: f.size, text: () => f.text() })));
        }}
      />
    </>
  );
}

/** A code file's text (`file/getContentByFilePath`), read-only. */
export function CodeViewDialog({ file, onClose }: { file: FileItem | null; onClose(): void }) {
  const { t, locale } = useStorageT();
  const content = storageApi.endpoints['storage/codeContent'].useQuery({ path: file?.path ?? '' }, { skip: !file });
  const d = content.currentData;
  return (
    <Dialog isOpen={file !== null} onClose={onClose} title={file?.path ?? ''} icon="code" style={{ width: 820, maxWidth: '95vw' }}>
      <DialogBody>
        {content.isFetching && !d ? (
          <Spinner size={24} />
        ) : content.isError ? (
          <Callout intent="danger" data-testid="storage-code-error">
            {failureMessage(content.error, t('code.loadFailed')) || t('code.loadFailed')}
          </Callout>
        ) : d ? (
          <>
            <p className={Classes.TEXT_MUTED}>{t('code.meta', { size: formatBytes(d.size), time: new Date(d.updatedAt).toLocaleString(locale) })}</p>
            {d.content === '' ? <p>{t('code.emptyFile')}</p> : <Pre data-testid="storage-code-content" style={{ maxHeight: '60vh', overflow: 'auto' }}>{d.content}</Pre>}
          </>
        ) : null}
      </DialogBody>
      <DialogFooter actions={<Button text={t('code.close')} onClick={onClose} autoFocus />} />
    </Dialog>
  );
}
