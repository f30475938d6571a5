import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page, tier } from '../../test/fixtures';
import { envelope, FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';
import { attributeTypeOps, cohortRules, fieldPredicateOps, ruleProblems, toDraft, toInput } from './rules';

const at = '2026-11-21T12:00:00.000Z';
const definitions: Schemas['AttributeDefinition'][] = [
  { id: 'att_1', key: 'favorite_color', type: 'string', created_at: at, updated_at: at },
  { id: 'att_2', key: 'shoe_size', type: 'number', created_at: at, updated_at: at },
];

function cohort(overrides: Partial<Schemas['Cohort']> = {}): Schemas['Cohort'] {
  return {
    id: 'coh_1', name: 'Blue lovers', description: '', created_by: 'acc_1', created_at: at, updated_at: at, member_count: 12, dead_keys: [],
    rules: { operator: 'and', version: 1, predicates: [{ type: 'attribute', key: 'favorite_color', op: 'eq', value: 'blue' }] }, ...overrides,
  };
}

function cohortApi(role: 'editor' | 'viewer', stored = cohort()) {
  return new FakeNetwork()
    .on('getCurrentUser', { data: account([membership(role)]) })
    .on('getCohort', { data: stored })
    .on('listCohortMembers', { data: page([]) })
    .on('listAttributes', { data: page(definitions) })
    .on('listTiers', { data: page([tier()]) });
}

describe('cohort rules', () => {
  it('writes `in` as a JSON array string (numbers for numeric fields) and reads it back', () => {
    const types = new Map([['shoe_size', 'number' as const]]);
    expect(toInput({ type: 'attribute', key: 'shoe_size', op: 'in', value: '41, 42' }, types)).toEqual({ type: 'attribute', key: 'shoe_size', op: 'in', value: '[41,42]' });
    expect(toInput({ type: 'status', key: '', op: 'in', value: 'active,reinstated' }, types)).toEqual({ type: 'status', op: 'in', value: '["active","reinstated"]' });
    expect(toInput({ type: 'country', key: '', op: 'exists', value: 'x' }, types)).toEqual({ type: 'country', op: 'exists' });
    expect(toDraft({ type: 'status', key: '', op: 'in', value: '["active","reinstated"]' }).value).toBe('active, reinstated');
    expect(ruleProblems({ operator: 'and', predicates: [{ type: 'xp_balance', key: '', op: 'contains', value: '' }] }, types, cohortRules)).toEqual({
      'rules.predicates.0.op': 'This comparison does not fit.',
      'rules.predicates.0.value': 'Required.',
    });
  });

  it('offers every predicate type, and per type exactly the ops the API accepts', async () => {
    await signedInApp(cohortApi('editor'), '/t/ten_1/cohorts/coh_1');
    const row = await screen.findByRole('group', { name: 'Condition 1' });
    const field = within(row).getByLabelText('Field');
    expect(within(field).getAllByRole('option').map((option) => option.getAttribute('value'))).toEqual(['attribute', 'tier', 'status', 'country', 'xp_balance', 'lifetime_xp']);
    const ops = () => within(within(row).getByLabelText('Comparison')).getAllByRole('option').map((option) => option.getAttribute('value'));
    await waitFor(() => expect(ops()).toEqual(attributeTypeOps.string));
    for (const type of ['tier', 'status', 'country', 'xp_balance', 'lifetime_xp'] as const) {
      await userEvent.selectOptions(within(row).getByLabelText('Field'), type);
      expect(ops()).toEqual(fieldPredicateOps[type]);
    }
  });

  it('shows the live member count of the rules being edited, and the API\'s errors at the condition', async () => {
    let answers = 0;
    const network = cohortApi('editor').on('updateCohort', (_request, _params, body) => {
      answers += 1;
      const rules = (body as { rules: Schemas['CohortRulesInput'] }).rules;
      if (rules.predicates[0]?.value === 'green') return { status: 422, error: envelope('VALIDATION_FAILED', 'The rules do not fit', [{ path: 'rules.predicates.0.value', message: 'Not allowed here' }]) };
      return { data: cohort({ member_count: 3, rules: { operator: 'and', version: 1, predicates: rules.predicates.map((p) => ({ type: p.type, key: p.key ?? '', op: p.op, value: p.value ?? '' })) } }) };
    });
    await signedInApp(network, '/t/ten_1/cohorts/coh_1');
    expect(await screen.findByText('12 members')).toBeTruthy();
    const value = await screen.findByLabelText('Value');
    await userEvent.clear(value);
    await userEvent.type(value, 'red');
    expect(await screen.findByText('3 members', {}, { timeout: 3000 })).toBeTruthy();
    expect(network.sentTo('PATCH', '/cohorts/coh_1').at(-1)?.body).toEqual({ rules: { operator: 'and', version: 1, predicates: [{ type: 'attribute', key: 'favorite_color', op: 'eq', value: 'red' }] } });
    expect(answers).toBe(1);
    await userEvent.clear(value);
    await userEvent.type(value, 'green');
    expect(await screen.findByText('Not allowed here', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('flags dead keys, and a viewer gets the rules read-only', async () => {
    const stored = cohort({ dead_keys: ['old_key'], rules: { operator: 'or', version: 1, predicates: [{ type: 'attribute', key: 'old_key', op: 'exists', value: '' }] } });
    await signedInApp(cohortApi('viewer', stored), '/t/ten_1/cohorts/coh_1');
    expect(await screen.findByText('Dead key: no longer defined, matches no one.')).toBeTruthy();
    expect((screen.getByRole('group', { name: 'Rules' }) as HTMLFieldSetElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe('attributes', () => {
  it('shows the warning of a normalized key', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('editor')]) })
      .on('listAttributes', { data: page([]) })
      .on('createAttribute', { status: 201, data: { id: 'att_9', warning: 'The key "Favorite Color" was normalized to "favorite_color"' } });
    await signedInApp(network, '/t/ten_1/attributes');
    await userEvent.click(await screen.findByRole('button', { name: 'New attribute' }));
    await userEvent.type(screen.getByLabelText('Key'), 'Favorite Color');
    await userEvent.click(screen.getByRole('button', { name: 'Create attribute' }));
    expect(await screen.findByText('The key "Favorite Color" was normalized to "favorite_color"')).toBeTruthy();
    expect(network.sentTo('POST', '/attributes')[0]?.body).toEqual({ key: 'Favorite Color', type: 'string' });
  });
});
