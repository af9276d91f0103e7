/**
 * Building blocks of the paged, searchable lists that most panels show (datasets, data
 * connections, projects, files, trainings, model services, ...): a debounced search box whose
 * change sends the list back to its first page, the page count, and the pager under the table.
 * The panel keeps its own call (`useQuery({ page, pageSize, keyword: search, ... })`), table and
 * empty states; these pieces only remove the bookkeeping every list repeated.
 */
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { Button } from '@blueprintjs/core';

/** `value`, once it has not changed for `ms` (search boxes: ask the server when typing pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/** Options of {@link useListSearch}. */
export interface ListSearchOptions {
  /** Wait after the last keystroke before `search` changes, ms (default 250). */
  debounceMs?: number;
  /** Other filters of the list (a type, a state, ...): a change of any also goes back to page 1. */
  filters?: readonly unknown[];
}

/** What {@link useListSearch} gives: the box's text, the search to send, and the page. */
export interface ListSearch {
  /** Text of the search box, as typed. */
  keyword: string;
  setKeyword(keyword: string): void;
  /** The trimmed keyword once typing paused (`''` for none): what the list call sends. */
  search: string;
  /** Page shown, from 1; back to 1 whenever `search` or a filter changes. */
  page: number;
  setPage(page: number | ((page: number) => number)): void;
}

/**
 * The search and page state of a paged list:
 *
 * ```tsx
 * const [type, setType] = useState('');
 * const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [type] });
 * const list = api.endpoints['x/page'].useQuery({ page, pageSize: PAGE_SIZE, keyword: search || undefined, type: type || undefined });
 * ```
 */
export function useListSearch(options: ListSearchOptions = {}): ListSearch {
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const search = useDebounced(keyword.trim(), options.debounceMs ?? 250);
  const filters = options.filters ?? [];
  // The filters are the same number of values on every render of one list.
  useEffect(() => setPage(1), [search, ...filters]);
  return { keyword, setKeyword, search, page, setPage };
}

/** Pages of a list of `total` rows, `pageSize` a page: at least 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** Props of {@link Pager}. */
export interface PagerProps {
  /** Page shown, from 1. */
  page: number;
  /** Pages in all (see {@link pageCount}). */
  pages: number;
  onPage(page: number): void;
  /** Accessible names (and tooltips) of the buttons, translated by the plugin, e.g. "Previous page". */
  prevLabel: string;
  nextLabel: string;
  /** What stands between the buttons (e.g. "Page 2 of 5, 93 in all"); by default `page / pages`. */
  children?: ReactNode;
  /** Write the labels on the buttons too (default: icon buttons). */
  withText?: boolean;
  /** Smaller buttons, for dense tables. */
  small?: boolean;
  /** Borderless buttons (lists in cards). */
  minimal?: boolean;
  style?: CSSProperties;
  'data-testid'?: string;
}

/**
 * Previous / next buttons around the page position, under a paged table. The buttons stop at
 * the first and last page; they are buttons, so Tab and Enter/Space work as for any other.
 */
export function Pager(props: PagerProps) {
  const { page, pages, onPage, prevLabel, nextLabel, withText } = props;
  const look = { size: props.small ? ('small' as const) : undefined, variant: props.minimal ? ('minimal' as const) : undefined };
  return (
    <div className="dc-pager" style={{ display: 'flex', alignItems: 'center', gap: 8, ...props.style }} data-testid={props['data-testid']}>
      <Button
        {...look}
        icon="chevron-left"
        text={withText ? prevLabel : undefined}
        aria-label={prevLabel}
        title={withText ? undefined : prevLabel}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      />
      <span>{props.children ?? `${page} / ${pages}`}</span>
      <Button
        {...look}
        endIcon={withText ? 'chevron-right' : undefined}
        icon={withText ? undefined : 'chevron-right'}
        text={withText ? nextLabel : undefined}
        aria-label={nextLabel}
        title={withText ? undefined : nextLabel}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      />
    </div>
  );
}
