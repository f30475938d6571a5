import { customerStatuses } from '../../api/types';
import { Button, Field } from '../../components/ui';
import type { FieldErrors } from '../../lib/forms';
import { opLabels, opsFor, valueKind, type AnyPredicateType, type AttributeType, type DraftPredicate, type DraftRules, type Op, type RuleLanguage } from './rules';

const typeLabels: Record<AnyPredicateType, string> = {
  attribute: 'Attribute', tier: 'Tier', status: 'Status', country: 'Country', xp_balance: 'XP balance', lifetime_xp: 'Lifetime XP', property: 'Event property', cohort: 'Cohort',
};
/** A `cohort` predicate reads as membership. */
const opLabel = (type: AnyPredicateType, op: Op): string => (type === 'cohort' ? (op === 'neq' ? 'is not a member of' : 'is a member of') : opLabels[op]);

export type BuilderContext = {
  definitions: Map<string, AttributeType>;
  tiers: { id: string; tier_name: string }[];
  countries: { code: string; name: string }[];
  deadKeys: string[];
  /** The tenant's cohorts, for `cohort` predicates (earning rules). */
  cohorts: { id: string; name: string }[];
};

/** The id and aria attributes <Field> gives its control are passed on to the real input. */
type ControlAria = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

function listHint(predicate: DraftPredicate<AnyPredicateType>, kind: string, context: BuilderContext): string {
  if (predicate.type === 'property') return 'comma-separated; numbers match numbers, "quoted" text stays text';
  if (kind === 'tier') return `tier ids: ${context.tiers.map((tier) => `${tier.tier_name}=${tier.id}`).join(', ')}`;
  if (kind === 'status') return customerStatuses.join(', ');
  return kind === 'country' ? 'alpha-2 codes, e.g. NL, DE' : 'comma-separated';
}

function ValueControl({ predicate, context, onChange, disabled, ...aria }: ControlAria & { predicate: DraftPredicate<AnyPredicateType>; context: BuilderContext; onChange: (value: string) => void; disabled: boolean }) {
  const kind = valueKind(predicate, context.definitions);
  const props = { ...aria, value: predicate.value, disabled, onChange: (event: { target: { value: string } }) => onChange(event.target.value) };
  if (predicate.op === 'in') {
    const hint = listHint(predicate, kind, context);
    return <input {...props} placeholder={hint} title={hint} />;
  }
  switch (kind) {
    case 'cohort':
      return <select {...props}><option value="">Choose…</option>{context.cohorts.map((cohort) => <option key={cohort.id} value={cohort.id}>{cohort.name}</option>)}</select>;
    case 'status':
      return <select {...props}><option value="">Choose…</option>{customerStatuses.map((status) => <option key={status} value={status}>{status}</option>)}</select>;
    case 'tier':
      return <select {...props}><option value="">Choose…</option>{context.tiers.map((tier) => <option key={tier.id} value={tier.id}>{tier.tier_name}</option>)}</select>;
    case 'boolean':
      return <select {...props}><option value="">Choose…</option><option value="true">true</option><option value="false">false</option></select>;
    case 'number':
      return <input {...props} inputMode="decimal" />;
    case 'date':
      return <input {...props} type="date" />;
    case 'country':
      return <select {...props}><option value="">Choose…</option>{context.countries.map((country) => <option key={country.code} value={country.code}>{country.name} ({country.code})</option>)}</select>;
    case 'datetime':
      return <input {...props} placeholder="2026-01-01T00:00:00Z" />;
    default:
      return <input {...props} />;
  }
}

type BuilderProps<T extends AnyPredicateType> = {
  rules: DraftRules<T>;
  onChange: (rules: DraftRules<T>) => void;
  /** Which language: a cohort's rules or an earning rule's conditions (their types and error paths). */
  language: RuleLanguage<T>;
  context: BuilderContext;
  errors: FieldErrors;
  disabled?: boolean;
};

/** Every predicate type and op of the language, one row per condition; errors sit at the API's paths. */
export function RuleBuilder<T extends AnyPredicateType>({ rules, onChange, language, context, errors, disabled = false }: BuilderProps<T>) {
  // A key the rules use but no definition names (yet) stays choosable, so an edit never drops it unseen.
  const used = rules.predicates.filter((predicate) => predicate.type === 'attribute').map((predicate) => predicate.key).filter(Boolean);
  const keys = [...new Set([...context.definitions.keys(), ...context.deadKeys, ...used])];
  const update = (index: number, next: Partial<DraftPredicate<T>>) => {
    const predicates = rules.predicates.map((predicate, at) => {
      if (at !== index) return predicate;
      const merged = { ...predicate, ...next };
      // A new type or key may not allow the op: fall back to the first that fits.
      const ops = opsFor(merged, context.definitions);
      return ops.includes(merged.op) ? merged : { ...merged, op: ops[0] ?? 'eq', value: '' };
    });
    onChange({ ...rules, predicates });
  };
  return (
    <fieldset className="rules" disabled={disabled}>
      <legend>{language.legend}</legend>
      <Field label="Match">
        <select value={rules.operator} onChange={(event) => onChange({ ...rules, operator: event.target.value === 'or' ? 'or' : 'and' })}>
          <option value="and">all conditions (and)</option>
          <option value="or">any condition (or)</option>
        </select>
      </Field>
      {rules.predicates.map((predicate, index) => {
        const at = `${language.path}.predicates.${index}`;
        const dead = predicate.type === 'attribute' && context.deadKeys.includes(predicate.key);
        return (
          <div className="predicate" key={index} role="group" aria-label={`Condition ${index + 1}`}>
            <Field label="Field" error={errors[`${at}.type`]}>
              <select value={predicate.type} onChange={(event) => update(index, { type: language.types.find((type) => type === event.target.value) ?? predicate.type, key: '', value: '' })}>
                {language.types.map((type) => <option key={type} value={type}>{typeLabels[type]}</option>)}
              </select>
            </Field>
            {predicate.type === 'attribute' ? (
              <Field label="Attribute" error={errors[`${at}.key`] ?? (dead ? 'Dead key: no longer defined, matches no one.' : undefined)}>
                <select value={predicate.key} onChange={(event) => update(index, { key: event.target.value, value: '' })}>
                  <option value="">Choose…</option>
                  {keys.map((key) => <option key={key} value={key}>{key}{context.deadKeys.includes(key) ? ' (dead key)' : context.definitions.has(key) ? ` (${context.definitions.get(key) ?? ''})` : ''}</option>)}
                </select>
              </Field>
            ) : predicate.type === 'property' ? (
              <Field label="Property" error={errors[`${at}.key`]}>
                <input value={predicate.key} placeholder="total" onChange={(event) => update(index, { key: event.target.value })} />
              </Field>
            ) : <div />}
            <Field label="Comparison" error={errors[`${at}.op`]}>
              <select value={predicate.op} onChange={(event) => update(index, { op: opsFor(predicate, context.definitions).find((op) => op === event.target.value) ?? predicate.op })}>
                {opsFor(predicate, context.definitions).map((op) => <option key={op} value={op}>{opLabel(predicate.type, op)}</option>)}
              </select>
            </Field>
            {valueKind(predicate, context.definitions) === 'none' ? <div /> : (
              <Field label="Value" error={errors[`${at}.value`]}>
                <ValueControl predicate={predicate} context={context} disabled={disabled} onChange={(value) => update(index, { value })} />
              </Field>
            )}
            <Button variant="link" aria-label={`Remove condition ${index + 1}`} onClick={() => onChange({ ...rules, predicates: rules.predicates.filter((_, at) => at !== index) })}>Remove</Button>
          </div>
        );
      })}
      {errors[`${language.path}.predicates`] ? <small className="error" role="alert">{errors[`${language.path}.predicates`]}</small> : null}
      <div><Button onClick={() => onChange({ ...rules, predicates: [...rules.predicates, language.added] })}>Add condition</Button></div>
    </fieldset>
  );
}
