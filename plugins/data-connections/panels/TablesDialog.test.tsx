import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { DataConnection } from '@decisio/domain';
import { createTestHost, heldBack, withHost } from '@decisio/sdk-plugin/testing';
import { dataConnectionsPlugin } from '../index';
import { TablesDialog } from './TablesDialog';

const connection = { id: 'c1', type: 'postgresql', name: 'Warehouse', database: 'wh' } as DataConnection;
const TABLES = [
  { name: 'sales', schema: 'wh', kind: 'table', estimatedRows: 10 },
  { name: 'stock', schema: 'wh', kind: 'table', estimatedRows: 5 },
];

describe('TablesDialog', () => {
  afterEach(cleanup);

  it("shows the picked table's columns only: another table's failure never shows the previous columns", async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u' } });
    host.mockCall('jobJdbcDatasource/tables', { code: 0, data: TABLES });
    host.mockCall('jobJdbcDatasource/columns', (body) =>
      (body as { table: string }).table === 'sales'
        ? { code: 0, data: [{ name: 'amount', dataType: 'numeric', kind: 'number', nullable: false }] }
        : { code: 5002, data: null, message: 'Table not found' },
    );
    render(withHost(host, <TablesDialog connection={connection} onClose={() => undefined} />));
    fireEvent.click(await screen.findByText('sales'));
    expect((await screen.findByTestId('columns-table')).textContent).toContain('amount');
    // the columns' own headings, not the connections table's ("Link name")
    expect(Array.from(screen.getByTestId('columns-table').querySelectorAll('th')).map((th) => th.textContent)).toEqual(['Column', 'Type', '']);
    fireEvent.click(screen.getByText('stock'));
    expect(await screen.findByText('Table not found')).toBeTruthy();
    expect(screen.queryByTestId('columns-table')).toBeNull();
    // back to the first: its columns again
    fireEvent.click(screen.getByText('sales'));
    await waitFor(() => expect(screen.getByTestId('columns-table').textContent).toContain('amount'));
  });

  it("opens with the focus on the first table once the list has loaded, not on the header's Close (where Enter closed the dialog)", async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u' } });
    const gate = heldBack();
    host.mockCall('jobJdbcDatasource/tables', async () => (await gate.wait, { code: 0, data: TABLES }));
    render(withHost(host, <TablesDialog connection={connection} onClose={() => undefined} />));
    // While the spinner shows, the header's Close is all there is to focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' })));
    gate.release();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByText('sales').closest('[role="menuitem"]')));
  });

  it('names a schema only where the tables span several', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u' } });
    host.mockCall('jobJdbcDatasource/tables', { code: 0, data: [{ name: 'sales', schema: 'public', kind: 'table', estimatedRows: 10 }] });
    const { unmount } = render(withHost(host, <TablesDialog connection={connection} onClose={() => undefined} />));
    const list = await screen.findByTestId('tables-list');
    expect(list.textContent).toContain('sales');
    expect(list.textContent).not.toContain('public.');
    unmount();
    const other = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u' } });
    other.mockCall('jobJdbcDatasource/tables', {
      code: 0,
      data: [
        { name: 'sales', schema: 'public', kind: 'table', estimatedRows: 10 },
        { name: 'sales', schema: 'archive', kind: 'table', estimatedRows: 3 },
      ],
    });
    render(withHost(other, <TablesDialog connection={connection} onClose={() => undefined} />));
    expect(await screen.findByText('public.sales')).toBeTruthy();
    expect(screen.getByText('archive.sales')).toBeTruthy();
  });
});
