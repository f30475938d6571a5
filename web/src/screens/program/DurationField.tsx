import { useId } from 'react';
import { durationUnits, durationValue, unitLabel, type DurationDraft } from './duration';

type Props = { label: string; hint: string; off: string; value: DurationDraft; onChange: (value: DurationDraft) => void; error: string | undefined };

/**
 * A duration of the program settings: a number and a unit (or off), with the ISO 8601 value it
 * saves shown under it, and the error of its request path (the form's check or the API's 422).
 */
export function DurationField({ label, hint, off, value, onChange, error }: Props) {
  const id = useId();
  const describedBy = [`${id}-hint`, `${id}-saves`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const control = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  const saved = durationValue(value);
  const chooseUnit = (unit: string) => {
    if (unit === 'off' || unit === 'iso') onChange({ unit, amount: unit === 'iso' ? (saved.ok && saved.value) || '' : '' });
    else onChange({ unit: durationUnits.find((known) => known === unit) ?? 'days', amount: value.unit === 'iso' || value.unit === 'off' ? '' : value.amount });
  };
  return (
    <fieldset className={`field${error ? ' field-invalid' : ''}`}>
      <legend>{label}</legend>
      <div className="row">
        {value.unit === 'off' ? null : (
          <input {...control} aria-label={value.unit === 'iso' ? 'ISO 8601 duration' : 'Amount'} inputMode={value.unit === 'iso' ? 'text' : 'numeric'} size={value.unit === 'iso' ? 16 : 6} value={value.amount} onChange={(event) => onChange({ ...value, amount: event.target.value })} />
        )}
        <select {...control} aria-label="Unit" value={value.unit} onChange={(event) => chooseUnit(event.target.value)}>
          <option value="off">{off}</option>
          {durationUnits.map((unit) => <option key={unit} value={unit}>{value.unit === unit ? unitLabel(unit, value.amount.trim()) : unit}</option>)}
          <option value="iso">ISO 8601 (as typed)</option>
        </select>
      </div>
      <small id={`${id}-hint`} className="hint">{hint}</small>
      <small id={`${id}-saves`} className="hint">{saved.ok ? <>Saves <code>{saved.value ?? 'null'}</code></> : 'Saves nothing until the value is valid'}</small>
      {error ? <small id={`${id}-error`} className="error" role="alert">{error}</small> : null}
    </fieldset>
  );
}
