import { HTMLTable } from '@blueprintjs/core';
import { cellDisplay } from '../format';
import { useValueKindLabel } from './value-kind';

/**
 * The first rows of a table: each column's name with its type in plain words (the engine's type
 * in its title), each cell as text. Shown for a
 * local file checked before upload (types the data worker inferred) and for a stored dataset
 * (the server's preview). Dates and timestamps read as such (see `cellDisplay`), the full value in
 * the cell's title.
 */
export function PreviewTable(props: { columns: readonly { name: string; type: string }[]; rows: readonly (readonly unknown[])[]; 'data-testid'?: string }) {
  const kindLabel = useValueKindLabel();
  return (
    <HTMLTable compact striped data-testid={props['data-testid']}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c.name}>
              {c.name}{' '}
              <span className="bp6-text-muted" title={c.type}>
                ({kindLabel(c.type)})
              </span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r, i) => (
          <tr key={i}>
            {r.map((v, j) => {
              const cell = cellDisplay(v, props.columns[j]?.type);
              return (
                <td key={j} title={cell.title}>
                  {cell.text}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
