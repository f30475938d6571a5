import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { QueryView } from '../../components/QueryView';
import { Button, Card, ErrorNote, Facts, Field, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, required } from '../../lib/rules';

type Settings = Schemas['ProgramSettings'];

/** The browser's IANA zones for the picker (the API decides what it takes: its 422 shows at the field). */
const zones = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/**
 * `PUT` replaces the whole document (a section left out is reset to its defaults), so the time zone
 * goes back with every other field exactly as `GET` gave it.
 */
function TimeZoneForm({ settings }: { settings: Settings }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [timezone, setTimezone] = useState(settings.timezone);
  const form = useFormMutation(
    (zone: string) => api.call(api.portal.replaceProgramSettings({ params: { path: { tenantId } }, body: { timezone: zone, points: settings.points, tiers: settings.tiers } })),
    {
      validate: (zone) => collect([required('timezone', zone)]),
      invalidate: [keys.programSettings(tenantId)],
      success: (saved) => `Time zone set to ${saved.timezone}.`,
    },
  );
  return (
    <form className="form" noValidate aria-label="Time zone" onSubmit={(event) => { event.preventDefault(); form.submit(timezone.trim()); }}>
      {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
      <Field label="Time zone" error={form.fieldErrors.timezone} hint="An IANA name, e.g. Europe/Paris or America/New_York">
        <input value={timezone} list="time-zones" onChange={(event) => setTimezone(event.target.value)} />
      </Field>
      <datalist id="time-zones">{zones.map((zone) => <option key={zone} value={zone} />)}</datalist>
      <div><Button type="submit" variant="primary" busy={form.busy}>Save time zone</Button></div>
    </form>
  );
}

export function ProgramSettings() {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const query = useQuery({
    queryKey: keys.programSettings(tenantId),
    queryFn: () => api.call(api.portal.getProgramSettings({ params: { path: { tenantId } } })),
  });
  return (
    <Page title="Program settings">
      <QueryView query={query} what="Loading the program settings">
        {(settings) => (
          <>
            <Card title="Time zone">
              <p className="hint">Earning rule limits per day, week (from Monday), month and year count in this time zone. A new zone moves the periods for the events evaluated after the change.</p>
              <Facts items={[['Time zone', settings.timezone], ['Last saved', settings.updated_at ? dateTime(settings.updated_at) : 'Never (defaults)']]} />
              {can('manage_program_settings') ? <TimeZoneForm key={settings.updated_at ?? 'defaults'} settings={settings} /> : <p className="hint">Admins change the program settings.</p>}
            </Card>
            <Card title="Points and tiers">
              <Facts
                items={[
                  ['Pending period', settings.points.pending_period ?? 'None'],
                  ['Validity', settings.points.validity ?? 'No expiry'],
                  ['Expiry rounding', settings.points.expiry_rounding.replace(/_/g, ' ')],
                  ['Expiry notice', settings.points.expiry_notice ?? 'None'],
                  ['Tier basis', settings.tiers.basis.replace(/_/g, ' ')],
                  ['Tier period', settings.tiers.period ?? '—'],
                  ['Downgrade', settings.tiers.downgrade.replace(/_/g, ' ')],
                  ['Review', settings.tiers.review],
                ]}
              />
              <p className="hint">Kept as they are when the time zone is saved.</p>
            </Card>
          </>
        )}
      </QueryView>
    </Page>
  );
}
