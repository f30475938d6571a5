import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useApi, useTenant } from '../context/providers';
import { DataTable } from '../components/DataTable';
import { QueryView } from '../components/QueryView';
import { Card, Page } from '../components/ui';
import { keys } from '../lib/keys';
import { useRedemptionColumns } from './program/Redemptions';
import { statusCounts, tierSplit, XP_DAYS, xpSeries } from './dashboard/data';

/** A chart with its numbers as a list for screen readers (the SVG alone says nothing to them). */
function Chart<T extends Record<string, string | number>>({ label, rows, describe, children }: { label: string; rows: T[]; describe: (row: T) => string; children: ReactElement }) {
  return (
    <figure className="chart-figure" aria-label={label}>
      <div className="chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">{children}</ResponsiveContainer>
      </div>
      <ul className="visually-hidden">{rows.map((row, index) => <li key={index}>{describe(row)}</li>)}</ul>
    </figure>
  );
}

export function Dashboard() {
  const api = useApi();
  const { tenantId, membership } = useTenant();
  const analytics = keys.analytics(tenantId);
  const statuses = useQuery({ queryKey: [...keys.customers(tenantId), 'by-status'], queryFn: () => statusCounts(api, tenantId) });
  const tiers = useQuery({ queryKey: [...keys.customers(tenantId), 'by-tier'], queryFn: () => tierSplit(api, tenantId) });
  const xp = useQuery({ queryKey: [...keys.transactions(tenantId), 'series'], queryFn: () => xpSeries(api, tenantId) });
  const topRewards = useQuery({ queryKey: [...analytics, 'top-rewards'], queryFn: () => api.call(api.portal.getTopRewards({ params: { path: { tenantId }, query: { limit: 5 } } })) });
  const topCountries = useQuery({ queryKey: [...analytics, 'top-countries'], queryFn: () => api.call(api.portal.getTopCountries({ params: { path: { tenantId }, query: { limit: 5 } } })) });
  const recent = useQuery({ queryKey: [...keys.redemptions(tenantId), 'recent'], queryFn: () => api.call(api.portal.listRedemptions({ params: { path: { tenantId }, query: { limit: 5 } } })) });
  const redemptionColumns = useRedemptionColumns(tenantId);
  return (
    <Page title={`${membership.tenant.name} dashboard`}>
      <div className="grid-2">
        <Card title="Customers by status">
          <QueryView query={statuses}>
            {(rows) => (
              <Chart label="Customers by status" rows={rows} describe={(row) => `${row.status}: ${row.count}`}>
                <BarChart data={rows}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="status" /><YAxis allowDecimals={false} /><Tooltip /><Bar isAnimationActive={false} dataKey="count" name="Customers" fill="#2f55d4" /></BarChart>
              </Chart>
            )}
          </QueryView>
        </Card>
        <Card title="Customers by tier">
          <QueryView query={tiers}>
            {(split) => (
              <>
                <Chart label="Customers by tier" rows={split.rows} describe={(row) => `${row.tier}: ${row.count}`}>
                  <BarChart data={split.rows}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="tier" /><YAxis allowDecimals={false} /><Tooltip /><Bar isAnimationActive={false} dataKey="count" name="Customers" fill="#067647" /></BarChart>
                </Chart>
                {split.counted < split.total ? <p className="hint">Of the newest {split.counted} of {split.total} customers.</p> : null}
              </>
            )}
          </QueryView>
        </Card>
      </div>
      <Card title={`XP issued and redeemed, last ${XP_DAYS} days`}>
        <QueryView query={xp}>
          {(series) => (
            <>
              <Chart label="XP issued and redeemed per day" rows={series.days} describe={(row) => `${row.day}: ${row.issued} issued, ${row.redeemed} redeemed`}>
                <AreaChart data={series.days}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} /><YAxis /><Tooltip /><Legend />
                  <Area isAnimationActive={false} type="monotone" dataKey="issued" name="Issued" stroke="#2f55d4" fill="#c7d4fa" />
                  <Area isAnimationActive={false} type="monotone" dataKey="redeemed" name="Redeemed" stroke="#b42318" fill="#fecdca" />
                </AreaChart>
              </Chart>
              {series.complete ? null : <p className="hint">Partial: only the newest transactions were read.</p>}
            </>
          )}
        </QueryView>
      </Card>
      <div className="grid-2">
        <Card title="Top rewards">
          <QueryView query={topRewards}>
            {(top) => {
              const rows = top.items.map((item) => ({ title: item.reward.title, count: item.redemption_count, share: item.share_of_tenant_redemptions_percent }));
              return rows.length === 0 ? <p className="muted">No redemptions yet (failed and canceled ones do not count).</p> : (
                <Chart label="Top rewards" rows={rows} describe={(row) => `${row.title}: ${row.count} redemptions (${row.share}%)`}>
                  <BarChart data={rows} layout="vertical"><XAxis type="number" allowDecimals={false} /><YAxis type="category" dataKey="title" width={110} /><Tooltip /><Bar isAnimationActive={false} dataKey="count" name="Redemptions" fill="#9a6700" /></BarChart>
                </Chart>
              );
            }}
          </QueryView>
        </Card>
        <Card title="Top countries">
          <QueryView query={topCountries}>
            {(top) => {
              const rows = top.items.map((item) => ({ country: item.country.name, count: item.active_fans_count, share: item.share_of_tenant_customers_percent }));
              return rows.length === 0 ? <p className="muted">No active customers with a country yet.</p> : (
                <Chart label="Top countries" rows={rows} describe={(row) => `${row.country}: ${row.count} active customers (${row.share}%)`}>
                  <BarChart data={rows} layout="vertical"><XAxis type="number" allowDecimals={false} /><YAxis type="category" dataKey="country" width={110} /><Tooltip /><Bar isAnimationActive={false} dataKey="count" name="Active customers" fill="#5b6675" /></BarChart>
                </Chart>
              );
            }}
          </QueryView>
        </Card>
      </div>
      <Card title="Recent redemptions">
        <QueryView query={recent}>{(result) => <DataTable caption="Recent redemptions" columns={redemptionColumns} data={result.items} empty="No redemptions yet." />}</QueryView>
      </Card>
    </Page>
  );
}
