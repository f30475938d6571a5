/**
 * Tables: TanStack Table (v9) for the model, our markup for semantics and style. Paging is the
 * server's (`page`/`limit` of every list), so the table renders one page and <Pager> moves.
 */
import { createColumnHelper, tableFeatures, useTable, type ColumnHelper, type RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Button } from './ui';

const features = tableFeatures({});
export type Features = typeof features;

export function columnHelper<T extends RowData>(): ColumnHelper<Features, T> {
  return createColumnHelper<Features, T>();
}

/** Columns as `helper.columns([...])` builds them (each keeps its own value type). */
export type Columns<T extends RowData> = ReturnType<ColumnHelper<Features, T>['columns']>;

export function DataTable<T extends RowData>({ columns, data, caption, empty = 'Nothing here yet.' }: { columns: Columns<T>; data: T[]; caption: string; empty?: ReactNode }) {
  const table = useTable({ features, columns, data });
  const rows = table.getRowModel().rows;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">{header.isPlaceholder ? null : <table.FlexRender header={header} />}</th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="empty">{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} data-label={typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({ page, totalPages, totalCount, onPage }: { page: number; totalPages: number; totalCount: number; onPage: (page: number) => void }) {
  // One page (or none): nothing to move between, only the count is worth saying.
  if (totalPages <= 1 && page <= 1) return totalCount > 0 ? <p className="pager hint">{totalCount} total</p> : null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>Previous</Button>
      <span aria-live="polite">Page {totalPages === 0 ? 0 : page} of {totalPages} · {totalCount} total</span>
      <Button onClick={() => onPage(page + 1)} disabled={page >= totalPages}>Next</Button>
    </nav>
  );
}
