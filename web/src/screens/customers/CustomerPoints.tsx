import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Customer } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { QueryView } from '../../components/QueryView';
import { Facts } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { keys } from '../../lib/keys';

/**
 * The customer's points (`GET …/points`, CONTRACT.md "Point lifecycle"): spendable, waiting for the
 * pending period, earned in all, the tier (with the review it is kept until, on tiers earned in a
 * period) and the next dates active points expire. Under the customer's key,
 * so an adjustment (which clears it) shows at once.
 */
/** On tiers earned in a period: the review the customer's tier is kept until. */
function keptUntil(customer: Customer): [string, ReactNode][] {
  if (!customer.tier_valid_until) return [];
  return [['Tier kept until', <>{dateTime(customer.tier_valid_until)} <small className="hint">its review: below the tier's XP in the period, it drops</small></>]];
}

export function CustomerPoints({ customer }: { customer: Customer }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'one', customer.id, 'points'],
    queryFn: () => api.call(api.portal.getCustomerPoints({ params: { path: { tenantId, userId: customer.id } } })),
  });
  return (
    <QueryView query={query} what="Loading the points">
      {(points) => (
        <>
          <Facts
            items={[
              ['Spendable XP', xp(points.xp_balance)],
              ['Pending XP', <>{xp(points.pending_xp)} <small className="hint">spendable once the pending period ends</small></>],
              ['Lifetime XP', xp(points.lifetime_xp)],
              ['Tier', customer.tier?.tier_name ?? 'No tier'],
              ...keptUntil(customer),
            ]}
          />
          <h3 id={`expiring-${customer.id}`}>Expiring</h3>
          {points.expiring.length === 0 ? (
            <p className="muted">No spendable XP is set to expire.</p>
          ) : (
            <ul className="plain" aria-labelledby={`expiring-${customer.id}`}>
              {points.expiring.map((entry) => (
                <li key={entry.expires_at}>
                  {xp(entry.amount)} XP on {dateTime(entry.expires_at)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </QueryView>
  );
}
