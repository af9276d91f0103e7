import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Dataset } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { dataAccessPlugin } from '../index';

const panel = dataAccessPlugin.panels.find((p) => p.id === 'data-access.correlation')!;
const ds = (tableId: string, name: string, cols: string[]): Dataset => ({
  tableId,
  name,
  type: 'business',
  fileType: 'csv',
  fileName: `${name}.csv`,
  delimiter: ',',
  amount: 10,
  size: 100,
  columns: cols.map((c) => ({ name: c, type: 'BIGINT', kind: 'int', dataType: 'continuous', min: null, max: null, discreteNumber: null, values: null, hidden: false })),
  projectId: null,
  creatorId: 'u1',
  creatorName: 'alice',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
});
const orders = ds('d1', 'orders', ['traj', 'step', 'ts', 'customer_id']);
const customers = ds('d2', 'customers', ['id', 'region']);
const location = { pathname: '/workflow/table-correlation', search: { projectId: 'P1', solutionId: 'S1' } };

describe('CorrelationPanel', () => {
  afterEach(() => cleanup());

  it('asks to be opened from a solution', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', { data: { rows: [], total: 0, page: 1, pageSize: 100 } });
    await renderPanel(panel, { host });
    expect(await screen.findByTestId('correlation-no-solution')).toBeTruthy();
  });

  it("offers the project's datasets (a collaborator sees the owner's tables by name), then the user's own", async () => {
    // carol, a viewer of alice's project P1: alice's tables by name, then carol's own dataset (the server accepts both).
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'carol' }, location });
    const elsewhere = { ...ds('d9', 'carol elsewhere', ['a']), creatorId: 'carol', creatorName: 'carol' };
    host.mockCall('table/list', (body) =>
      (body as { projectId?: string }).projectId === 'P1'
        ? { data: { rows: [{ ...orders, projectId: 'P1' }, { ...customers, projectId: 'P1' }], total: 2, page: 1, pageSize: 100 } }
        : { data: { rows: [elsewhere], total: 1, page: 1, pageSize: 100 } },
    );
    host.mockCall('solution/getTableCorrelation', {
      data: { solutionId: 'S1', correlation: { primaryTableId: 'd1', trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'ts', relations: [{ from: 'd1', fromField: 'customer_id', to: 'gone', toField: 'id' }] } },
    });
    await renderPanel(panel, { host });
    await waitFor(() => expect((screen.getByTestId('corr-table-0') as HTMLSelectElement).value).toBe('d1'));
    const options = [...(screen.getByTestId('corr-table-0') as HTMLSelectElement).options].map((o) => o.text);
    expect(options).toEqual(['Choose a dataset…', 'orders', 'customers', 'carol elsewhere']);
    expect(host.calls.filter((c) => c.url === 'table/list').map((c) => (c.body as { projectId?: string }).projectId).sort()).toEqual(['P1', undefined]);
    // A saved table that is neither the project's nor the user's is named as such, not shown as an id.
    const other = screen.getByTestId('corr-table-1') as HTMLSelectElement;
    expect(other.value).toBe('gone');
    expect(other.selectedOptions[0]!.text).toBe('A table outside this project');
    expect([...(screen.getByTestId('corr-rel-0-to') as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Choose a dataset…', 'orders', 'A table outside this project']);
  });

  it('refuses to save an incomplete step with the spec\'s messages, then saves a connected one', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location });
    host.mockCall('table/list', { data: { rows: [orders, customers], total: 2, page: 1, pageSize: 100 } });
    host.mockCall('solution/getTableCorrelation', { data: { solutionId: 'S1', correlation: null } });
    host.mockCall('solution/setTableCorrelation', (body) => ({ data: body }));
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('corr-save'));
    expect(await screen.findByText('Choose the primary table')).toBeTruthy();
    // Trajectory and sequence fields; the datetime field is optional (a table without a time column).
    expect(screen.getAllByText('Required')).toHaveLength(2);
    fireEvent.change(screen.getByTestId('corr-table-0'), { target: { value: 'd1' } });
    fireEvent.change(screen.getByTestId('corr-trajectory'), { target: { value: 'traj' } });
    fireEvent.change(screen.getByTestId('corr-sequence'), { target: { value: 'step' } });
    fireEvent.change(screen.getByTestId('corr-datetime'), { target: { value: 'ts' } });
    fireEvent.click(screen.getByTestId('corr-add-table'));
    fireEvent.change(screen.getByTestId('corr-table-1'), { target: { value: 'd2' } });
    fireEvent.click(screen.getByTestId('corr-save'));
    expect(await screen.findByText('Every table must be connected')).toBeTruthy();
    expect(host.calls.some((c) => c.url === 'solution/setTableCorrelation')).toBe(false);
    fireEvent.click(screen.getByTestId('corr-add-relation'));
    fireEvent.change(screen.getByTestId('corr-rel-0-fromField'), { target: { value: 'customer_id' } });
    fireEvent.change(screen.getByTestId('corr-rel-0-to'), { target: { value: 'd2' } });
    fireEvent.change(screen.getByTestId('corr-rel-0-toField'), { target: { value: 'id' } });
    fireEvent.click(screen.getByTestId('corr-save'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Data access saved'));
    expect(host.calls.find((c) => c.url === 'solution/setTableCorrelation')?.body).toEqual({
      solutionId: 'S1',
      correlation: {
        primaryTableId: 'd1',
        datasetId: 'd1',
        trajectoryField: 'traj',
        sequenceField: 'step',
        datetimeField: 'ts',
        relations: [{ from: 'd1', fromField: 'customer_id', to: 'd2', toField: 'id' }],
      },
    });
  });

  it("never offers the previous solution's relation for another solution whose own fails to load", async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location });
    host.mockCall('table/list', { data: { rows: [orders, customers], total: 2, page: 1, pageSize: 100 } });
    host.mockCall('solution/getTableCorrelation', (body) =>
      (body as { solutionId: string }).solutionId === 'S1'
        ? { data: { solutionId: 'S1', correlation: { primaryTableId: 'd1', trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'ts', relations: [] } } }
        : { code: 1005, message: 'refused' },
    );
    await renderPanel(panel, { host });
    await waitFor(() => expect((screen.getByTestId('corr-table-0') as HTMLSelectElement).value).toBe('d1'));
    act(() => host.services.get(navigationServiceRef).navigate('/workflow/table-correlation', { search: { projectId: 'P1', solutionId: 'S2' } }));
    expect(await screen.findByText('The data access settings could not be loaded')).toBeTruthy();
    expect(screen.getByText('refused')).toBeTruthy();
    expect(screen.queryByTestId('corr-table-0')).toBeNull();
    expect(screen.queryByTestId('corr-save')).toBeNull();
  });

  it('shows a saved field that no longer matches, and the server\'s refusal', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' }, location });
    host.mockCall('table/list', { data: { rows: [orders], total: 1, page: 1, pageSize: 100 } });
    host.mockCall('solution/getTableCorrelation', {
      data: { solutionId: 'S1', correlation: { primaryTableId: 'd1', trajectoryField: 'gone', sequenceField: 'step', datetimeField: 'ts', relations: [] } },
    });
    host.mockCall('solution/setTableCorrelation', { code: 1008, message: '参数错误' });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('corr-save'));
    expect(await screen.findByText('字段与表的列不匹配')).toBeTruthy();
    fireEvent.change(screen.getByTestId('corr-trajectory'), { target: { value: 'traj' } });
    fireEvent.click(screen.getByTestId('corr-save'));
    expect((await screen.findByTestId('corr-server-error')).textContent).toContain('参数错误');
  });
});
