import { useState } from 'react';
import type { Customer } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { Button, Field } from '../../components/ui';
import { saveFile } from '../../lib/download';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';

/**
 * A person's data (admins; docs/OPERATIONS.md, "Erasure and subject access"): download everything
 * held about the customer as one JSON file, or erase the person after typing their external id.
 */

/** Saves `data` as a JSON file the browser downloads. */
function saveJson(fileName: string, data: unknown): void {
  saveFile(fileName, new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
}

function EraseDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [typed, setTyped] = useState('');
  const erase = useAction(() => api.call(api.portal.eraseCustomer({ params: { path: { tenantId, userId: customer.id } } })), {
    invalidate: [keys.customers(tenantId)],
    success: "The person's data was erased.",
    onSuccess: onClose,
  });
  const confirmed = typed.trim() === customer.external_id;
  return (
    <Dialog title="Erase this person" onClose={onClose}>
      <div className="dialog-body">
        <p>
          Removes the email, username, external id and attribute values for good. The XP ledger, redemptions, balances and tier stay under the
          customer id {customer.id}. This cannot be undone.
        </p>
        <Field label="Type the external id to confirm" hint={customer.external_id}>
          <input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        </Field>
      </div>
      <footer className="dialog-footer">
        <Button onClick={onClose}>Keep</Button>
        <Button variant="danger" busy={erase.isPending} disabled={!confirmed} onClick={() => erase.mutate(undefined)}>
          Erase
        </Button>
      </footer>
    </Dialog>
  );
}

export function CustomerPersonalData({ customer }: { customer: Customer }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [erasing, setErasing] = useState(false);
  const download = useAction(() => api.call(api.portal.exportCustomerData({ params: { path: { tenantId, userId: customer.id } } })), {
    onSuccess: (data) => saveJson(`customer-${customer.id}.json`, data),
  });
  // Always offered: erasing again changes nothing (the API is idempotent), and the record has no
  // erased flag to read (a partner's own external id may start with "erased_").
  return (
    <div className="row" role="group" aria-label="Personal data">
      <Button busy={download.isPending} onClick={() => download.mutate(undefined)}>Download data (JSON)</Button>
      <Button variant="danger" onClick={() => setErasing(true)}>Erase this person</Button>
      {erasing ? <EraseDialog customer={customer} onClose={() => setErasing(false)} /> : null}
    </div>
  );
}
