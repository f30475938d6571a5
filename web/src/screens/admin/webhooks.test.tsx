import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page } from '../../test/fixtures';
import { FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const at = '2026-11-21T12:00:00.000Z';
const endpoint: Schemas['WebhookEndpoint'] = {
  id: 'whe_1', url: 'https://example.com/hooks', description: 'Orders', event_types: ['redemption.completed'], status: 'enabled', disabled_reason: null, failing_since: null, previous_secret_expires_at: null, created_at: at, updated_at: at,
};
const delivery: Schemas['WebhookDelivery'] = {
  id: 'whd_1', endpoint_id: 'whe_1', event_id: 'evt_1', event_type: 'redemption.completed', status: 'failed', attempts: 3, last_status_code: 500, last_error: null, next_attempt_at: null, delivered_at: null, created_at: at, updated_at: at,
};

describe('webhooks', () => {
  it('creating an endpoint shows its signing secret once', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listWebhookEndpoints', { data: page([]) })
      .on('createWebhookEndpoint', { status: 201, data: { ...endpoint, secret: 'whsec_ONCE' } });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/webhooks');
    await user.click(await screen.findByRole('button', { name: 'New endpoint' }));
    const form = screen.getByRole('dialog', { name: 'New webhook endpoint' });
    await user.type(within(form).getByLabelText('URL'), 'https://example.com/hooks');
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));
    expect(await within(form).findByText('Pick at least one event.')).toBeTruthy();
    await user.click(within(form).getByLabelText('redemption.completed'));
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));
    const shown = await screen.findByRole('dialog', { name: 'Endpoint created' });
    expect(within(shown).getByLabelText('signing secret').textContent).toBe('whsec_ONCE');
    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByText('whsec_ONCE')).toBeNull();
    expect(network.sentTo('POST', '/webhook-endpoints')[0]?.body).toEqual({ url: 'https://example.com/hooks', description: '', event_types: ['redemption.completed'] });
  });

  it('rotating shows the new secret; a failed delivery can be replayed', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('getWebhookEndpoint', { data: endpoint })
      .on('listWebhookDeliveries', { data: page([delivery]) })
      .on('replayWebhookDelivery', { data: { ...delivery, status: 'pending' } })
      .on('rotateWebhookEndpointSecret', { data: { ...endpoint, secret: 'whsec_NEW' } });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/webhooks/whe_1');
    await user.click(await screen.findByRole('button', { name: 'Replay' }));
    expect(await screen.findByText(/Delivery queued again/)).toBeTruthy();
    expect(network.sentTo('POST', '/deliveries/whd_1/replay')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Rotate secret' })).getByRole('button', { name: 'Rotate' }));
    expect(within(await screen.findByRole('dialog', { name: 'New signing secret' })).getByLabelText('signing secret').textContent).toBe('whsec_NEW');
  });
});
