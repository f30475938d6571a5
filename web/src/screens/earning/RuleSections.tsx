/**
 * The earning rule editor's sections below the conditions: the effect, tier multipliers, limits and
 * the window. Each edits its part of the draft and shows the errors at the API's request paths.
 */
import { limitPeriods, MAX_RULE_LIMITS, MAX_RULE_MULTIPLIERS, type LimitPeriod } from '../../../../src/domain/earning-limits';
import { Button, Field } from '../../components/ui';
import type { FieldErrors } from '../../lib/forms';
import type { EffectDraft, LimitDraft, MultiplierDraft } from './draft';

type Section<T> = { value: T; onChange: (value: T) => void; errors: FieldErrors };

const periodLabels: Record<LimitPeriod, string> = { day: 'Per day', week: 'Per week (from Monday)', month: 'Per month', year: 'Per year', lifetime: 'Ever (lifetime)' };

/** An error of a whole list (`limits.per_customer`), shown under it. */
function ListError({ message }: { message: string | undefined }) {
  return message ? <small className="error" role="alert">{message}</small> : null;
}

export function EffectFields({ value, onChange, errors }: Section<EffectDraft>) {
  const set = (name: keyof EffectDraft) => (event: { target: { value: string } }) => onChange({ ...value, [name]: event.target.value });
  return (
    <fieldset className="rules">
      <legend>Effect</legend>
      <Field label="Gives" error={errors.effect ?? errors['effect.kind']}>
        <select value={value.kind} onChange={(event) => onChange({ ...value, kind: event.target.value === 'per_unit' ? 'per_unit' : 'fixed' })}>
          <option value="fixed">a fixed amount of XP</option>
          <option value="per_unit">XP per unit of an event property</option>
        </select>
      </Field>
      {value.kind === 'fixed' ? (
        <Field label="XP" error={errors['effect.amount']}><input inputMode="numeric" value={value.amount} onChange={set('amount')} /></Field>
      ) : (
        <div className="grid-3">
          <Field label="Property" error={errors['effect.property']} hint="A number of the event, e.g. total"><input value={value.property} placeholder="total" onChange={set('property')} /></Field>
          <Field label="XP per unit" error={errors['effect.xp_per_unit']} hint="e.g. 2 or 0.5"><input inputMode="decimal" value={value.xp_per_unit} onChange={set('xp_per_unit')} /></Field>
          <Field label="Unit" error={errors['effect.unit']} hint="Empty for 1; e.g. 10 for XP per 10 spent"><input inputMode="decimal" value={value.unit} placeholder="1" onChange={set('unit')} /></Field>
        </div>
      )}
      <p className="hint">Per unit: floor(property ÷ unit × XP per unit). A rule giving 0 XP has no effect.</p>
    </fieldset>
  );
}

export function MultiplierRows({ value, onChange, errors, tiers }: Section<MultiplierDraft[]> & { tiers: { id: string; tier_name: string }[] }) {
  const update = (index: number, next: Partial<MultiplierDraft>) => onChange(value.map((row, at) => (at === index ? { ...row, ...next } : row)));
  return (
    <fieldset className="rules">
      <legend>Tier multipliers</legend>
      {value.map((row, index) => (
        <div className="rule-row" key={index} role="group" aria-label={`Multiplier ${index + 1}`}>
          <Field label="Tier" error={errors[`multipliers.${index}.tier_id`]}>
            <select value={row.tier_id} onChange={(event) => update(index, { tier_id: event.target.value })}>
              <option value="">Choose…</option>
              {tiers.map((tier) => <option key={tier.id} value={tier.id}>{tier.tier_name}</option>)}
            </select>
          </Field>
          <Field label="Factor" error={errors[`multipliers.${index}.factor`]}><input inputMode="decimal" value={row.factor} onChange={(event) => update(index, { factor: event.target.value })} /></Field>
          <Button variant="link" aria-label={`Remove multiplier ${index + 1}`} onClick={() => onChange(value.filter((_, at) => at !== index))}>Remove</Button>
        </div>
      ))}
      <ListError message={errors.multipliers} />
      <p className="hint">A customer in the tier gets the effect times the factor (rounded down), e.g. 2 for double.</p>
      {value.length < MAX_RULE_MULTIPLIERS ? <div><Button onClick={() => onChange([...value, { tier_id: '', factor: '2' }])}>Add multiplier</Button></div> : null}
    </fieldset>
  );
}

export function LimitRows({ value, onChange, budget, onBudget, errors }: Section<LimitDraft[]> & { budget: string; onBudget: (budget: string) => void }) {
  const update = (index: number, next: Partial<LimitDraft>) => onChange(value.map((row, at) => (at === index ? { ...row, ...next } : row)));
  const unused = limitPeriods.find((period) => !value.some((row) => row.period === period));
  return (
    <fieldset className="rules">
      <legend>Limits</legend>
      {value.map((row, index) => {
        const at = `limits.per_customer.${index}`;
        return (
          <div className="rule-row" key={index} role="group" aria-label={`Limit ${index + 1}`}>
            <Field label="Period" error={errors[`${at}.period`]}>
              <select value={row.period} onChange={(event) => update(index, { period: limitPeriods.find((period) => period === event.target.value) ?? row.period })}>
                {limitPeriods.map((period) => <option key={period} value={period}>{periodLabels[period]}</option>)}
              </select>
            </Field>
            <Field label="Max times" error={errors[`${at}.max_times`]}><input inputMode="numeric" value={row.max_times} onChange={(event) => update(index, { max_times: event.target.value })} /></Field>
            <Field label="Max XP" error={errors[`${at}.max_xp`]}><input inputMode="numeric" value={row.max_xp} onChange={(event) => update(index, { max_xp: event.target.value })} /></Field>
            <Button variant="link" aria-label={`Remove limit ${index + 1}`} onClick={() => onChange(value.filter((_, at) => at !== index))}>Remove</Button>
          </div>
        );
      })}
      <ListError message={errors['limits.per_customer'] ?? errors.limits} />
      <p className="hint">Per customer; days, weeks, months and years count in the program&apos;s time zone. An effect that would pass a limit gives what still fits.</p>
      {unused && value.length < MAX_RULE_LIMITS ? <div><Button onClick={() => onChange([...value, { period: unused, max_times: '', max_xp: '' }])}>Add limit</Button></div> : null}
      <Field label="Total XP budget" error={errors['limits.total_xp_budget']} hint="All customers together; empty for no budget">
        <input inputMode="numeric" value={budget} onChange={(event) => onBudget(event.target.value)} />
      </Field>
    </fieldset>
  );
}

export function WindowFields({ startsAt, endsAt, onChange, errors }: { startsAt: string; endsAt: string; onChange: (window: { starts_at: string; ends_at: string }) => void; errors: FieldErrors }) {
  return (
    <fieldset className="rules">
      <legend>Window</legend>
      <div className="grid-2">
        <Field label="Starts at" error={errors.starts_at} hint="Empty: no start. With its zone, e.g. 2026-12-01T00:00:00Z">
          <input value={startsAt} placeholder="2026-12-01T00:00:00Z" onChange={(event) => onChange({ starts_at: event.target.value, ends_at: endsAt })} />
        </Field>
        <Field label="Ends at" error={errors.ends_at} hint="Empty: no end">
          <input value={endsAt} placeholder="2026-12-31T23:59:59Z" onChange={(event) => onChange({ starts_at: startsAt, ends_at: event.target.value })} />
        </Field>
      </div>
      <p className="hint">The rule applies to events whose time (occurred_at) falls in the window.</p>
    </fieldset>
  );
}
