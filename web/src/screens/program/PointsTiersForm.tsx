import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Button, ErrorNote, Field } from '../../components/ui';
import { useFormMutation, type FieldErrors } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { DurationField } from './DurationField';
import { durationDraft, durationValue, type DurationDraft } from './duration';

type Settings = Schemas['ProgramSettings'];
type Points = Settings['points'];
type Tiers = Settings['tiers'];

/** Each value once, typed by the generated unions: a value the API adds or drops fails this build until it is labelled here. */
export const roundingLabels: Record<Points['expiry_rounding'], string> = { none: 'None (the exact time)', end_of_day: 'End of the day', end_of_month: 'End of the month', end_of_year: 'End of the year' };
export const basisLabels: Record<Tiers['basis'], string> = { lifetime: 'Lifetime XP', earned_in_period: 'XP earned in a period' };
export const downgradeLabels: Record<Tiers['downgrade'], string> = { none: 'None (keep the tier)', one_step: 'One tier down', recalculate: "Recalculate from the period's XP" };
export const reviewLabels: Record<Tiers['review'], string> = { monthly: 'Monthly', quarterly: 'Quarterly', yearly: 'Yearly' };

type ChoiceProps<K extends string> = { labels: Record<K, string>; value: K; onChange: (value: K) => void; id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/** A select of one of these settings' values; `Field` gives it its id and descriptions. */
function Choice<K extends string>({ labels, value, onChange, ...control }: ChoiceProps<K>) {
  const values = Object.keys(labels) as K[];
  return (
    <select {...control} value={value} onChange={(event) => onChange(values.find((known) => known === event.target.value) ?? value)}>
      {values.map((known) => <option key={known} value={known}>{labels[known]}</option>)}
    </select>
  );
}

type Durations = { pending_period: DurationDraft; validity: DurationDraft; expiry_notice: DurationDraft; period: DurationDraft };
type Draft = Durations & { expiry_rounding: Points['expiry_rounding']; basis: Tiers['basis']; downgrade: Tiers['downgrade']; review: Tiers['review'] };
const paths: Record<keyof Durations, string> = { pending_period: 'points.pending_period', validity: 'points.validity', expiry_notice: 'points.expiry_notice', period: 'tiers.period' };

/** The period shows, and is checked and sent, only with tiers on XP earned in a period: the form saves what it shows. */
const periodShown = (draft: Draft) => draft.basis === 'earned_in_period';

function validate(draft: Draft): FieldErrors {
  const errors: FieldErrors = {};
  for (const name of ['pending_period', 'validity', 'expiry_notice', 'period'] as const) {
    if (name === 'period' && !periodShown(draft)) continue;
    const value = durationValue(draft[name]);
    if (!value.ok) errors[paths[name]] = value.message;
    else if (name === 'period' && value.value === null) errors[paths.period] = 'Required with tiers on XP earned in a period.';
  }
  return errors;
}

/** Only called once `validate` passed, so every shown duration has its value. */
const iso = (draft: DurationDraft): string | null => {
  const value = durationValue(draft);
  return value.ok ? value.value : null;
};

/**
 * The points and tiers sections of the program settings. `PUT` replaces the whole document, so the
 * time zone goes back exactly as `GET` gave it (its own form saves it).
 */
export function PointsTiersForm({ settings }: { settings: Settings }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({
    pending_period: durationDraft(settings.points.pending_period), validity: durationDraft(settings.points.validity), expiry_notice: durationDraft(settings.points.expiry_notice),
    expiry_rounding: settings.points.expiry_rounding, basis: settings.tiers.basis, period: durationDraft(settings.tiers.period), downgrade: settings.tiers.downgrade, review: settings.tiers.review,
  });
  const form = useFormMutation(
    (values: Draft) =>
      api.call(api.portal.replaceProgramSettings({
        params: { path: { tenantId } },
        body: {
          timezone: settings.timezone,
          points: { pending_period: iso(values.pending_period), validity: iso(values.validity), expiry_rounding: values.expiry_rounding, expiry_notice: iso(values.expiry_notice) },
          tiers: { basis: values.basis, period: periodShown(values) ? iso(values.period) : null, downgrade: values.downgrade, review: values.review },
        },
      })),
    { validate, invalidate: [keys.programSettings(tenantId)], success: 'Points and tiers saved. They apply to credits made from now on.' },
  );
  const duration = (name: keyof Durations, label: string, hint: string, off = 'Off') => (
    <DurationField label={label} hint={hint} off={off} value={draft[name]} onChange={(value) => setDraft({ ...draft, [name]: value })} error={form.fieldErrors[paths[name]]} />
  );
  return (
    <form className="form" noValidate aria-label="Points and tiers" onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
      {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
      <fieldset className="rules">
        <legend>Points</legend>
        {duration('pending_period', 'Pending period', 'Points wait this long before they can be spent (a returns window).', 'Off (spendable at once)')}
        {duration('validity', 'Validity', 'Points expire this long after they become spendable.', 'Off (never expire)')}
        <Field label="Expiry rounding" error={form.fieldErrors['points.expiry_rounding']} hint="Moves each expiry to the end of its day, month or year in the program's time zone.">
          <Choice labels={roundingLabels} value={draft.expiry_rounding} onChange={(expiry_rounding) => setDraft({ ...draft, expiry_rounding })} />
        </Field>
        {duration('expiry_notice', 'Expiry notice', 'The xp.expiring webhook is sent this long before points expire.', 'Off (no notice)')}
      </fieldset>
      <fieldset className="rules">
        <legend>Tiers</legend>
        <Field label="Tier basis" error={form.fieldErrors['tiers.basis']} hint="Which XP places a customer in a tier: all ever earned, or only what was earned in a trailing period.">
          <Choice labels={basisLabels} value={draft.basis} onChange={(basis) => setDraft({ ...draft, basis })} />
        </Field>
        {periodShown(draft) ? duration('period', 'Tier period', 'The XP earned in this trailing period decides the tier; upgrades apply at once.') : null}
        <Field label="Downgrade" error={form.fieldErrors['tiers.downgrade']} hint="At a review after a customer's period ends, how far a customer below their tier drops.">
          <Choice labels={downgradeLabels} value={draft.downgrade} onChange={(downgrade) => setDraft({ ...draft, downgrade })} />
        </Field>
        <Field label="Review" error={form.fieldErrors['tiers.review']} hint="How often tiers are reviewed for downgrades.">
          <Choice labels={reviewLabels} value={draft.review} onChange={(review) => setDraft({ ...draft, review })} />
        </Field>
      </fieldset>
      <p className="hint">
        Settings apply to credits made after you save; points already credited keep their dates. Moving tiers to a period keeps every customer in
        their tier until its first review.
      </p>
      <div><Button type="submit" variant="primary" busy={form.busy}>Save points and tiers</Button></div>
    </form>
  );
}
