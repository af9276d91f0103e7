import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FileItem, UploadState } from '@decisio/domain';
import { pageCount, Pager, useListSearch } from './list';
import { ListBody, type ListQuery } from './page';
import { createTestHost, withHost } from './testing';
import { resumeKey, type UploadTransport } from './upload';
import { forgetUpload, useUploadTransport } from './upload-transport';

afterEach(() => cleanup());

describe('Pager', () => {
  it('steps between the first and the last page, with the labels as accessible names', () => {
    const asked: number[] = [];
    const { rerender } = render(<Pager page={1} pages={3} onPage={(p) => asked.push(p)} prevLabel="Previous page" nextLabel="Next page" />);
    const prev = screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    expect(screen.getByText('1 / 3')).toBeTruthy();
    fireEvent.click(next);
    rerender(<Pager page={3} pages={3} onPage={(p) => asked.push(p)} prevLabel="Previous page" nextLabel="Next page" />);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(asked).toEqual([2, 2]);
  });

  it('shows the given position text, and the labels on the buttons when asked', () => {
    render(
      <Pager page={2} pages={5} onPage={() => undefined} prevLabel="上一页" nextLabel="下一页" withText>
        第 2 / 5 页
      </Pager>,
    );
    expect(screen.getByText('第 2 / 5 页')).toBeTruthy();
    expect(screen.getByRole('button', { name: '上一页' }).textContent).toContain('上一页');
    expect(screen.getByRole('button', { name: '下一页' }).textContent).toContain('下一页');
  });

  it('counts pages', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});

function SearchList() {
  const [type, setType] = useState('');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ debounceMs: 30, filters: [type] });
  return (
    <div>
      <input aria-label="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <button onClick={() => setType('b')}>type b</button>
      <button onClick={() => setPage((p) => p + 1)}>next</button>
      <output data-testid="state">{`${JSON.stringify(search)} page ${page}`}</output>
    </div>
  );
}

describe('useListSearch', () => {
  it('sends the trimmed keyword once typing pauses, and goes back to page 1 on a new search or filter', async () => {
    render(<SearchList />);
    const state = () => screen.getByTestId('state').textContent;
    expect(state()).toBe('"" page 1');
    fireEvent.click(screen.getByText('next'));
    fireEvent.click(screen.getByText('next'));
    expect(state()).toBe('"" page 3');
    fireEvent.change(screen.getByLabelText('search'), { target: { value: '  ord' } });
    expect(state()).toBe('"" page 3');
    await waitFor(() => expect(state()).toBe('"ord" page 1'));
    fireEvent.click(screen.getByText('next'));
    expect(state()).toBe('"ord" page 2');
    fireEvent.click(screen.getByText('type b'));
    expect(state()).toBe('"ord" page 1');
  });
});

describe('uploads', () => {
  it('forgets every resume key of a discarded upload and nothing else', () => {
    const store = window.localStorage;
    store.clear();
    const a = resumeKey({ name: 'a.csv', size: 10, lastModified: 1 });
    const b = resumeKey({ name: 'b.csv', size: 10, lastModified: 1 });
    const c = resumeKey({ name: 'c.csv', size: 10, lastModified: 1 });
    store.setItem(a, 'U1');
    store.setItem(b, 'U2');
    store.setItem(c, 'U1');
    store.setItem('other', 'U1');
    forgetUpload(store, 'U1');
    expect([store.getItem(a), store.getItem(b), store.getItem(c), store.getItem('other')]).toEqual([null, 'U2', null, 'U1']);
  });

  it('builds one transport over the plugin mutations', async () => {
    const host = createTestHost({ session: { token: 't', userId: 'u1' } });
    const createdAt = '2026-11-02T10:00:00.000Z';
    const state: UploadState = { uploadId: 'U1', name: 'a.csv', purpose: 'dataset', size: 3, partSize: 3, partCount: 1, state: 'uploading', parts: [], receivedBytes: 0, fileId: null, createdAt };
    const file: FileItem = { fileId: 'F1', name: 'a.csv', path: 'a.csv', kind: 'dataset', size: 3, userId: 'u1', createdAt, updatedAt: createdAt, deletedAt: null };
    const called: string[] = [];
    const trigger = <R,>(name: string, result: R) => (arg: unknown) => {
      called.push(`${name} ${JSON.stringify(arg)}`);
      return { unwrap: () => Promise.resolve(result) };
    };
    const init = trigger('init', state);
    const parts = trigger('parts', state);
    const complete = trigger('complete', file);
    const seen: UploadTransport[] = [];
    function Probe(props: { n: number }) {
      seen.push(useUploadTransport(init, parts, complete));
      return <span>{props.n}</span>;
    }
    const { rerender } = render(withHost(host, <Probe n={1} />));
    rerender(withHost(host, <Probe n={2} />));
    expect(seen.length).toBe(2);
    expect(seen[1]).toBe(seen[0]);
    const t = seen[0]!;
    await act(async () => {
      expect(await t.init({ name: 'a.csv', size: 3, purpose: 'dataset' })).toBe(state);
      expect(await t.state('U1')).toBe(state);
      expect(await t.complete('U1')).toBe(file);
    });
    expect(called).toEqual(['init {"name":"a.csv","size":3,"purpose":"dataset"}', 'parts {"uploadId":"U1"}', 'complete {"uploadId":"U1"}']);
  });
});

describe('ListBody', () => {
  const base = { isLoading: false, isError: false, refetch: () => undefined };
  const body = (query: ListQuery, current?: boolean) => (
    <ListBody query={query} current={current} failed="Failed" retry="Retry" empty={<p>No rows</p>}>
      <p>rows</p>
    </ListBody>
  );

  it('with `current`, waits for the answer of the current arguments instead of saying the list is empty', () => {
    // Another policy's runs on their way: the previous answer is not this one's (`currentData` undefined).
    const switching = { ...base, isFetching: true, currentData: undefined };
    const { rerender, container } = render(body(switching, true));
    expect(container.querySelector('.bp6-spinner')).toBeTruthy();
    expect(screen.queryByText('No rows')).toBeNull();
    // Without `current` the caller keeps the previous rows while the next page loads.
    rerender(body(switching));
    expect(screen.getByText('No rows')).toBeTruthy();
    // A refetch of the same arguments keeps the list.
    rerender(body({ ...base, isFetching: true, currentData: { rows: [] } }, true));
    expect(screen.getByText('No rows')).toBeTruthy();
  });
});
