import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { Customer, CustomerStatus } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { useCountryName } from '../../context/masterdata';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, Facts, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { CustomerAttributes } from './CustomerAttributes';
import { CustomerBalances, CustomerEligibility } from './CustomerChain';
import { CustomerEvents } from './CustomerEvents';
import { CustomerPersonalData } from './CustomerPersonalData';
import { CustomerPointLots } from './CustomerPointLots';
import { CustomerPoints } from './CustomerPoints';
import { CustomerRedemptions } from './CustomerRedemptions';
import { CustomerLedger, XpAdjustment } from './CustomerXp';

/** The only status moves the API allows (CONTRACT.md "Customers"); anything else it refuses with 409. */
export const statusMoves: Record<CustomerStatus, { to: CustomerStatus; label: string }[]> = {
  pending: [{ to: 'active', label: 'Activate' }],
  active: [{ to: 'suspended', label: 'Suspend' }],
  suspended: [{ to: 'reinstated', label: 'Reinstate' }],
  reinstated: [{ to: 'suspended', label: 'Suspend' }],
};

function StatusChange({ customer }: { customer: Customer }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [move, setMove] = useState<{ to: CustomerStatus; label: string } | null>(null);
  const change = useAction(
    (status: CustomerStatus) => api.call(api.portal.updateCustomer({ params: { path: { tenantId, userId: customer.id } }, body: { status } })),
    { invalidate: [keys.customers(tenantId)], success: 'Status changed.', onSuccess: () => setMove(null) },
  );
  return (
    <div className="row" role="group" aria-label="Change status">
      {statusMoves[customer.status].map((option) => (
        <Button key={option.to} variant={option.to === 'suspended' ? 'danger' : 'primary'} onClick={() => setMove(option)}>
          {option.label}
        </Button>
      ))}
      {move ? (
        <Confirm
          title={`${move.label} customer`}
          message={<p>Change the status of {customer.external_id} from {customer.status} to {move.to}?{move.to === 'suspended' ? ' A suspended customer can neither earn nor redeem.' : ''}</p>}
          confirmLabel={move.label}
          busy={change.isPending}
          onConfirm={() => change.mutate(move.to)}
          onClose={() => setMove(null)}
        />
      ) : null}
    </div>
  );
}

export function CustomerPage() {
  const api = useApi();
  const { tenantId } = useTenant();
  const { customerId } = useParams({ from: '/t/$tenantId/customers/$customerId' });
  const countryName = useCountryName();
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'one', customerId],
    queryFn: () => api.call(api.portal.getCustomer({ params: { path: { tenantId, userId: customerId } } })),
  });
  return (
    <QueryView query={query} what="Loading the customer">
      {(customer) => (
        <Page title={customer.username ?? customer.email ?? customer.external_id} actions={<Link to="/t/$tenantId/customers" params={{ tenantId }} search={{ page: 1 }}>All customers</Link>}>
          <div className="grid-2">
            <Card title="Profile" actions={<Allowed to="edit_program"><StatusChange customer={customer} /></Allowed>}>
              <Facts
                items={[
                  ['Status', <Badge value={customer.status} />],
                  ['External id', customer.external_id],
                  ['Email', customer.email],
                  ['Username', customer.username],
                  ['Country', countryName(customer.country_code)],
                  ['Id', <code>{customer.id}</code>],
                  ['Created', dateTime(customer.created_at)],
                  ['Updated', dateTime(customer.updated_at)],
                ]}
              />
              <Allowed to="manage_personal_data">
                <CustomerPersonalData customer={customer} />
              </Allowed>
            </Card>
            <Card title="XP">
              <CustomerPoints customer={customer} />
              <Allowed to="edit_program">
                <XpAdjustment customer={customer} />
              </Allowed>
            </Card>
          </div>
          <CustomerLedger customerId={customer.id} />
          <CustomerPointLots customerId={customer.id} />
          <CustomerEvents customerId={customer.id} />
          <CustomerRedemptions customerId={customer.id} />
          <div className="grid-2">
            <CustomerAttributes customerId={customer.id} />
            <CustomerEligibility customerId={customer.id} />
          </div>
          <CustomerBalances customerId={customer.id} />
        </Page>
      )}
    </QueryView>
  );
}
