import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/types';
import { account, membership, page } from '../../test/fixtures';
import { FakeNetwork } from '../../test/fake-api';
import { signedInApp } from '../../test/render';

const asset: Schemas['OnchainAsset'] = {
  id: 'oa_1', asset_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', chain_id: 31337, decimals: 18, key: 'xp', name: 'Loyalty Points', symbol: 'LOY', status: 'active', type: 'erc20', total_owners: 2, total_txns: 5,
};

describe('onchain assets', () => {
  it('registering checks the address and decimals as the API states them, then sends the registration', async () => {
    const network = new FakeNetwork()
      .on('getCurrentUser', { data: account([membership('admin')]) })
      .on('listOnchainAssets', { data: page([]) })
      .on('createOnchainAsset', { status: 201, data: asset })
      .on('getOnchainAsset', { data: asset })
      .on('getOnchainAssetReconciliation', { data: { asset_id: 'oa_1', key: 'xp', decimals: 18, ledger_total: '1000', onchain_total: '900', difference: '-100', last_indexed_block: 42, total_supply: '1500', supply_source: 'total_supply', supply_difference: '500', customers: [{ user_id: 'cus_1', wallet_address: '0xabc', ledger_balance: '1000', onchain_balance: '900', difference: '-100' }] } });
    const user = userEvent.setup();
    await signedInApp(network, '/t/ten_1/onchain-assets');
    await user.click(await screen.findByRole('button', { name: 'New asset' }));
    const dialog = screen.getByRole('dialog', { name: 'New onchain asset' });
    await user.click(within(dialog).getByLabelText('Register an existing contract'));
    await user.type(within(dialog).getByLabelText('Contract address'), '0x123');
    await user.type(within(dialog).getByLabelText('Key'), 'xp');
    await user.type(within(dialog).getByLabelText('Name'), 'Loyalty Points');
    await user.type(within(dialog).getByLabelText('Symbol'), 'LOY');
    await user.clear(within(dialog).getByLabelText('Decimals'));
    await user.type(within(dialog).getByLabelText('Decimals'), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));
    expect(await within(dialog).findByText('A contract address: 0x and 40 hex digits.')).toBeTruthy();
    expect(within(dialog).getByText('An ERC-20 needs decimals, 0 to 36.')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Contract address'));
    await user.type(within(dialog).getByLabelText('Contract address'), asset.asset_address ?? '');
    await user.clear(within(dialog).getByLabelText('Decimals'));
    await user.type(within(dialog).getByLabelText('Decimals'), '18');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Loyalty Points' })).toBeTruthy();
    expect(network.sentTo('POST', '/onchain-assets')[0]?.body).toEqual({ type: 'erc20', chain_id: 31337, name: 'Loyalty Points', symbol: 'LOY', key: 'xp', decimals: 18, asset_address: asset.asset_address });
    expect(await screen.findByText('Base units (× 10^18). Difference: -100.')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Customers whose balances differ' })).toBeTruthy();
    // A mint outside the platform: the supply says so even where no platform wallet differs.
    expect(screen.getByText("The token's supply differs from the ledger by 500: units exist (or were burned) outside this platform's settlements.")).toBeTruthy();
  });

  it('an editor sees assets but may not register, edit or delete them (admins only)', async () => {
    const network = new FakeNetwork().on('getCurrentUser', { data: account([membership('editor')]) }).on('getOnchainAsset', { data: asset }).on('getOnchainAssetReconciliation', { data: { asset_id: 'oa_1', key: 'xp', decimals: 18, ledger_total: '0', onchain_total: '0', difference: '0', last_indexed_block: null, total_supply: null, supply_source: 'indexed_transfers', supply_difference: null, customers: [] } });
    await signedInApp(network, '/t/ten_1/onchain-assets/oa_1');
    expect(await screen.findByText('Base units (× 10^18). Ledger and chain agree.')).toBeTruthy();
    expect(screen.queryByText(/supply differs/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).toBeNull();
  });
});
