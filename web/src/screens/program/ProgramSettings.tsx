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
import { describeDuration } from './duration';
import { basisLabels, downgradeLabels, PointsTiersForm, reviewLabels, roundingLabels } from './PointsTiersForm';

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
            {/* Each form starts over from GET when its own part of the document changes, not when the other one saves. */}
            <Card title="Time zone">
              <p className="hint">Earning rule limits per day, week (from Monday), month and year count in this time zone. A new zone moves the periods for the events evaluated after the change.</p>
              <Facts items={[['Time zone', settings.timezone], ['Last saved', settings.updated_at ? dateTime(settings.updated_at) : 'Never (defaults)']]} />
              {can('manage_program_settings') ? <TimeZoneForm key={settings.timezone} settings={settings} /> : <p className="hint">Admins change the program settings.</p>}
            </Card>
            <Card title="Points and tiers">
              {can('manage_program_settings') ? (
                <PointsTiersForm key={JSON.stringify([settings.points, settings.tiers])} settings={settings} />
              ) : (
                <Facts
                  items={[
                    ['Pending period', describeDuration(settings.points.pending_period, 'Off (spendable at once)')],
                    ['Validity', describeDuration(settings.points.validity, 'Off (never expire)')],
                    ['Expiry rounding', roundingLabels[settings.points.expiry_rounding]],
                    ['Expiry notice', describeDuration(settings.points.expiry_notice, 'Off (no notice)')],
                    ['Tier basis', basisLabels[settings.tiers.basis]],
                    ['Tier period', describeDuration(settings.tiers.period, '—')],
                    ['Downgrade', downgradeLabels[settings.tiers.downgrade]],
                    ['Review', reviewLabels[settings.tiers.review]],
                  ]}
                />
              )}
            </Card>
          </>
        )}
      </QueryView>
    </Page>
  );
}
