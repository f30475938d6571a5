import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Customer, Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, ErrorNote, Field } from '../../components/ui';
import { dateTime, shortId, xp } from '../../lib/format';
import { useFormMutation } from '../../lib/forms';
import { TransactionDetails } from './TransactionDetails';
import { TransactionStatus, TransactionType, usePendingUntil } from './ledger-cells';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';

type Transaction = Schemas['InternalTransaction'];
const column = columnHelper<Transaction>();

export function validateAdjustment(body: { amount: string; notes: string }) {
  return collect([
    required('amount', body.amount),
    ['amount', !limits.xpAdjustment.test(body.amount), 'A whole number from -1,000,000,000 to 1,000,000,000, not 0 (e.g. 150 or -20).'],
    required('notes', body.notes),
    maxLength('notes', body.notes, limits.notes),
  ]);
}

/** `xp_admin_adjust`: a correction with a reason; negative takes XP away (never below zero: the API says so if it would). */
export function XpAdjustment({ customer }: { customer: Customer }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const form = useFormMutation(
    (body: { amount: string; notes: string }) => api.call(api.portal.adjustCustomerXp({ params: { path: { tenantId, userId: customer.id } }, body })),
    {
      validate: validateAdjustment,
      invalidate: [keys.customers(tenantId), keys.transactions(tenantId)],
      success: (transaction) => `Adjusted by ${xp(transaction.amount)} XP.`,
      onSuccess: () => {
        setAmount('');
        setNotes('');
      },
    },
  );
  return (
    <form
      className="form"
      noValidate
      aria-label="XP adjustment"
      onSubmit={(event) => {
        event.preventDefault();
        form.submit({ amount: amount.trim(), notes: notes.trim() });
      }}
    >
      <h3>Adjust XP</h3>
      {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
      <Field label="Amount" error={form.fieldErrors.amount} hint="Negative to take XP away, e.g. -20">
        <input inputMode="numeric" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </Field>
      <Field label="Notes" error={form.fieldErrors.notes} hint="Why: kept in the ledger">
        <textarea rows={2} maxLength={limits.notes} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </Field>
      <Button type="submit" variant="primary" busy={form.busy}>Adjust XP</Button>
    </form>
  );
}

function ChainLinks({ transaction }: { transaction: Transaction }) {
  const chain = transaction.blockchain_transaction_links?.blockchain_transaction ?? [];
  if (chain.length === 0) return <span className="muted">{transaction.onchain_asset ? 'waiting' : 'off-chain'}</span>;
  return (
    <ul className="plain">
      {chain.map((tx) => (
        <li key={tx.id}>
          <code title={tx.tx_hash ?? tx.id}>{tx.tx_hash ? shortId(tx.tx_hash) : shortId(tx.id)}</code> {tx.txn_status ? <Badge value={tx.txn_status} /> : null}
          {tx.chain_id ? <small className="muted"> chain {tx.chain_id}</small> : null}
        </li>
      ))}
    </ul>
  );
}

/** The customer's internal transactions, newest first, each with the chain transactions behind it. */
export function CustomerLedger({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...keys.transactions(tenantId), { user_id: customerId, page }],
    queryFn: () => api.call(api.portal.listInternalTransactions({ params: { path: { tenantId }, query: { user_id: customerId, page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const pendingUntil = usePendingUntil(customerId, query.data?.items.some((row) => row.status === 'pending') ?? false);
  const columns = column.columns([
    column.accessor('created_at', { header: 'When', cell: (info) => dateTime(info.getValue()) }),
    column.accessor('type', { header: 'Type', cell: (info) => <TransactionType transaction={info.row.original} onOpen={setOpen} /> }),
    column.accessor('amount', { header: 'Amount', cell: (info) => xp(info.getValue()) }),
    column.accessor('status', { header: 'Status', cell: (info) => <TransactionStatus transaction={info.row.original} pendingUntil={pendingUntil} /> }),
    column.accessor((row) => row.notes ?? row.reward?.title ?? '', { id: 'notes', header: 'Notes / reward' }),
    column.display({ id: 'chain', header: 'Chain', cell: (info) => <ChainLinks transaction={info.row.original} /> }),
    column.display({ id: 'details', header: 'Details', cell: (info) => <Button variant="link" onClick={() => setOpen(info.row.original.id)} aria-label={`Details of transaction ${info.row.original.id}`}>Details</Button> }),
  ]);
  return (
    <Card title="Ledger">
      <QueryView query={query} what="Loading the ledger">
        {(result) => (
          <>
            <DataTable caption="Ledger" columns={columns} data={result.items} empty="No transactions yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {open ? <TransactionDetails transactionId={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
