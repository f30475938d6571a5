import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Role, Schemas } from '../../api/types';
import { account, earningRule, membership, page, tier } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';
import { ruleConditions, ruleProblems, toDraft, toInput } from '../segments/rules';
import { bodyOf, changedFields, draftOf } from './draft';

const at = '2026-11-21T12:00:00.000Z';
const cohort: Schemas['Cohort'] = {
  id: 'coh_1', name: 'Regulars', description: '', created_by: 'acc_1', created_at: at, updated_at: at, member_count: 3, dead_keys: [],
  rules: { operator: 'and', version: 1, predicates: [{ type: 'status', key: '', op: 'eq', value: 'active' }] },
};

function editorApi(role: Role = 'editor') {
  return new FakeNetwork()
    .on('getCurrentUser', { data: account([membership(role)]) })
    .on('listAttributes', { data: page([]) })
    .on('listTiers', { data: page([tier()]) })
    .on('listCohorts', { data: page([cohort]) })
    .on('listEarningRules', { data: page([]) })
    .on('getProgramSettings', { status: 404, error: envelope('NOT_FOUND', 'not in this test') });
}

/** The error tied to a control (aria-describedby names its hint and its error), as a screen reader reads it. */
function errorAt(control: HTMLElement): string {
  const described = (control.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
  return described.filter((element) => element?.getAttribute('role') === 'alert').map((element) => element?.textContent ?? '').join(' ');
}

describe('earning rule conditions', () => {
  it('a property\'s `in` list sends numbers as numbers and "quoted" digits as text, and reads them back the same', () => {
    const definitions = new Map();
    const input = toInput({ type: 'property', key: ' sku ', op: 'in', value: '42, "1042", latte' }, definitions);
    expect(input).toEqual({ type: 'property', key: 'sku', op: 'in', value: '[42,"1042","latte"]' });
    expect(toDraft({ type: 'property', key: 'sku', op: 'in', value: input.value ?? '' }).value).toBe('42, "1042", latte');
    expect(toInput({ type: 'cohort', key: '', op: 'eq', value: 'coh_1' }, definitions)).toEqual({ type: 'cohort', op: 'eq', value: 'coh_1' });
    expect(ruleProblems({ operator: 'and', predicates: [{ type: 'property', key: '1st', op: 'gt', value: '1e3' }, { type: 'cohort', key: '', op: 'eq', value: '' }] }, definitions, ruleConditions)).toEqual({
      'conditions.predicates.0.key': 'An event property\'s key, e.g. total.',
      'conditions.predicates.0.value': 'A number, e.g. 20 or 19.99.',
      'conditions.predicates.1.value': 'Pick a cohort.',
    });
  });

  it('an edit of nothing changes nothing: a stored rule\'s draft gives back its own body', () => {
    const rule = earningRule({ conditions: { operator: 'or', predicates: [{ type: 'property', key: 'sku', op: 'in', value: '[42,"1042"]' }] }, multipliers: [{ tier_id: 'tier_gold', factor: '1.5' }], ends_at: at });
    const stored = bodyOf(draftOf(rule), new Map());
    expect(changedFields(bodyOf(draftOf(rule), new Map()), stored)).toEqual({});
    expect(changedFields({ ...stored, priority: 5 }, stored)).toEqual({ priority: 5 });
  });
});

describe('earning rule editor', () => {
  it('creates a rule from every part of the builder; our checks stop a bad draft, and the API\'s 422 shows at each field its path names', async () => {
    const network = editorApi().on('createEarningRule', {
      status: 422,
      error: envelope('VALIDATION_FAILED', 'The earning rule is not valid', [
        { path: 'conditions.predicates.1.value', message: 'No cohort coh_1 in this tenant' },
        { path: 'multipliers.0.tier_id', message: 'No tier tier_gold in this tenant' },
        { path: 'limits.per_customer.0.period', message: 'One limit per period: week is already limited' },
        { path: 'status', message: 'At most 50 active rules per event type' },
      ]),
    });
    await signedInApp(network, '/t/ten_1/earning-rules/new');
    await userEvent.type(await screen.findByLabelText('Name'), 'Orders over $20');
    await userEvent.type(screen.getByLabelText('Event type'), 'order.paid');
    await userEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    const first = screen.getByRole('group', { name: 'Condition 1' });
    await userEvent.type(within(first).getByLabelText('Property'), 'total');
    await userEvent.selectOptions(within(first).getByLabelText('Comparison'), 'gte');
    await userEvent.type(within(first).getByLabelText('Value'), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    const second = screen.getByRole('group', { name: 'Condition 2' });
    await userEvent.selectOptions(within(second).getByLabelText('Field'), 'cohort');
    expect(within(within(second).getByLabelText('Comparison')).getAllByRole('option').map((option) => option.textContent)).toEqual(['is a member of', 'is not a member of']);
    await waitFor(() => expect(within(second).getAllByRole('option', { name: 'Regulars' })).toHaveLength(1));
    await userEvent.selectOptions(within(second).getByLabelText('Value'), 'coh_1');
    const effect = screen.getByRole('group', { name: 'Effect' });
    await userEvent.selectOptions(within(effect).getByLabelText('Gives'), 'per_unit');
    await userEvent.type(within(effect).getByLabelText('Property'), 'total');
    await userEvent.type(within(effect).getByLabelText('XP per unit'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Add multiplier' }));
    await userEvent.selectOptions(within(screen.getByRole('group', { name: 'Multiplier 1' })).getByLabelText('Tier'), 'tier_gold');
    await userEvent.click(screen.getByRole('button', { name: 'Add limit' }));
    const limit = screen.getByRole('group', { name: 'Limit 1' });
    await userEvent.selectOptions(within(limit).getByLabelText('Period'), 'week');
    await userEvent.type(screen.getByLabelText('Starts at'), '2026-12-31T00:00:00Z');
    await userEvent.type(screen.getByLabelText('Ends at'), '2026-12-01T00:00:00Z');
    await userEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(errorAt(within(limit).getByLabelText('Max times'))).toBe('Give max times, max XP or both.');
    expect(errorAt(screen.getByLabelText('Ends at'))).toBe('Must be after the start.');
    expect(network.sentTo('POST', '/earning-rules')).toEqual([]);

    await userEvent.type(within(limit).getByLabelText('Max XP'), '500');
    await userEvent.clear(screen.getByLabelText('Starts at'));
    await userEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(await screen.findByText('The earning rule is not valid')).toBeTruthy();
    expect(errorAt(within(second).getByLabelText('Value'))).toBe('No cohort coh_1 in this tenant');
    expect(errorAt(within(screen.getByRole('group', { name: 'Multiplier 1' })).getByLabelText('Tier'))).toBe('No tier tier_gold in this tenant');
    expect(errorAt(within(limit).getByLabelText('Period'))).toBe('One limit per period: week is already limited');
    expect(errorAt(screen.getByLabelText('Status'))).toBe('At most 50 active rules per event type');
    expect(network.sentTo('POST', '/earning-rules')[0]?.body).toEqual({
      name: 'Orders over $20', description: '', event_type: 'order.paid', status: 'active', priority: 0, stackable: true,
      conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gte', value: '20' }, { type: 'cohort', op: 'eq', value: 'coh_1' }] },
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
      multipliers: [{ tier_id: 'tier_gold', factor: '2' }],
      limits: { per_customer: [{ period: 'week', max_xp: '500' }] },
      starts_at: null, ends_at: '2026-12-01T00:00:00Z',
    });
  });

  it('an edit sends only the fields it changed, then goes back to the list', async () => {
    const network = editorApi()
      .on('getEarningRule', { data: earningRule() })
      .on('updateEarningRule', (_request, _params, body) => ({ data: earningRule(body as Partial<Schemas['EarningRule']>) }));
    await signedInApp(network, '/t/ten_1/earning-rules/er_1');
    const priority = await screen.findByLabelText('Priority');
    expect(screen.getByText(/Applied 1,234 times, 56,789 XP awarded/)).toBeTruthy();
    await userEvent.clear(priority);
    await userEvent.type(priority, '20');
    await userEvent.click(screen.getByLabelText('Stackable'));
    await userEvent.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Earning rules' })).toBeTruthy();
    expect(network.sentTo('PATCH', '/earning-rules/er_1')[0]?.body).toEqual({ priority: 20, stackable: false });
  });

  it('a viewer reads the rule with every control disabled and no save', async () => {
    await signedInApp(editorApi('viewer').on('getEarningRule', { data: earningRule() }), '/t/ten_1/earning-rules/er_1');
    expect(((await screen.findByLabelText('Name')).closest('fieldset') as HTMLFieldSetElement).disabled).toBe(true);
    expect((screen.getByRole('group', { name: 'Conditions' }) as HTMLFieldSetElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save rule' })).toBeNull();
  });
});
