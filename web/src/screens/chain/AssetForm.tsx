import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { Button, ErrorNote, Field } from '../../components/ui';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';

type Body = Schemas['CreateOnchainAssetBody'];
type Draft = { mode: 'register' | 'deploy'; type: Body['type']; chain_id: string; key: string; name: string; symbol: string; decimals: string; asset_address: string };

export function validateAsset(draft: Draft) {
  const decimals = Number(draft.decimals);
  return collect([
    ['chain_id', !/^[1-9]\d*$/.test(draft.chain_id), 'A chain id configured for the platform (CHAINS), e.g. 31337.'],
    ['key', draft.key !== '' && !limits.assetKey.test(draft.key), 'Lowercase letters, digits and _, 1-64 characters.'],
    ['key', draft.key === 'xp' && draft.type !== 'erc20', 'The XP token (key xp) must be an ERC-20.'],
    required('name', draft.name),
    maxLength('name', draft.name, limits.assetName),
    required('symbol', draft.symbol),
    maxLength('symbol', draft.symbol, limits.assetSymbol),
    ['decimals', draft.type === 'erc20' && (!/^\d+$/.test(draft.decimals) || decimals > limits.assetDecimals), `An ERC-20 needs decimals, 0 to ${limits.assetDecimals}.`],
    ['asset_address', draft.mode === 'register' && !limits.assetAddress.test(draft.asset_address), 'A contract address: 0x and 40 hex digits.'],
  ]);
}

function bodyOf(draft: Draft): Body {
  return {
    type: draft.type,
    chain_id: Number(draft.chain_id),
    name: draft.name.trim(),
    symbol: draft.symbol.trim(),
    ...(draft.key ? { key: draft.key } : {}),
    ...(draft.type === 'erc20' ? { decimals: Number(draft.decimals) } : {}),
    ...(draft.mode === 'register' ? { asset_address: draft.asset_address.trim() } : {}),
  };
}

/** Registers an existing contract (active at once) or has the platform deploy its reference contract (deploying, then active). */
export function AssetForm({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({ mode: 'deploy', type: 'erc20', chain_id: '31337', key: '', name: '', symbol: '', decimals: '18', asset_address: '' });
  const form = useFormMutation((values: Draft) => api.call(api.portal.createOnchainAsset({ params: { path: { tenantId } }, body: bodyOf(values) })), {
    validate: validateAsset,
    invalidate: [keys.assets(tenantId)],
    success: (asset) => (asset.status === 'deploying' ? 'Deploying the contract: the status turns active once it is mined.' : 'Asset registered.'),
    onSuccess: (asset) => void navigate({ to: '/t/$tenantId/onchain-assets/$assetId', params: { tenantId, assetId: asset.id ?? '' } }),
  });
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <Dialog title="New onchain asset" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <fieldset className="field">
          <legend>How</legend>
          <div className="checks">
            <label><input type="radio" name="mode" checked={draft.mode === 'deploy'} onChange={() => setDraft({ ...draft, mode: 'deploy' })} /> Deploy the platform's contract</label>
            <label><input type="radio" name="mode" checked={draft.mode === 'register'} onChange={() => setDraft({ ...draft, mode: 'register' })} /> Register an existing contract</label>
          </div>
        </fieldset>
        <Field label="Type" error={form.fieldErrors.type}>
          <select value={draft.type} onChange={set('type')}><option value="erc20">ERC-20</option><option value="erc721">ERC-721</option><option value="erc1155">ERC-1155</option></select>
        </Field>
        <Field label="Chain id" error={form.fieldErrors.chain_id}><input inputMode="numeric" value={draft.chain_id} onChange={set('chain_id')} /></Field>
        {draft.mode === 'register' ? (
          <Field label="Contract address" error={form.fieldErrors.asset_address} hint="It must give the relayer the reference contract's mint/burn calls">
            <input value={draft.asset_address} onChange={set('asset_address')} placeholder="0x…" />
          </Field>
        ) : null}
        <Field label="Key" error={form.fieldErrors.key} hint="Optional, unique; xp makes it the tenant's XP token (every XP transaction mirrored onchain)"><input value={draft.key} onChange={set('key')} /></Field>
        <Field label="Name" error={form.fieldErrors.name}><input value={draft.name} maxLength={limits.assetName} onChange={set('name')} /></Field>
        <Field label="Symbol" error={form.fieldErrors.symbol}><input value={draft.symbol} maxLength={limits.assetSymbol} onChange={set('symbol')} /></Field>
        {draft.type === 'erc20' ? <Field label="Decimals" error={form.fieldErrors.decimals}><input inputMode="numeric" value={draft.decimals} onChange={set('decimals')} /></Field> : null}
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>{draft.mode === 'deploy' ? 'Deploy' : 'Register'}</Button></div>
      </form>
    </Dialog>
  );
}

/** Name and symbol are what the API lets change after creation (status has its own button). */
export function AssetEdit({ asset, onClose }: { asset: Schemas['OnchainAsset']; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [name, setName] = useState(asset.name ?? '');
  const [symbol, setSymbol] = useState(asset.symbol ?? '');
  const form = useFormMutation(
    (body: { name: string; symbol: string }) => api.call(api.portal.updateOnchainAsset({ params: { path: { tenantId, id: asset.id ?? '' } }, body })),
    {
      validate: (body) => collect([required('name', body.name), maxLength('name', body.name, limits.assetName), required('symbol', body.symbol), maxLength('symbol', body.symbol, limits.assetSymbol)]),
      invalidate: [keys.assets(tenantId)],
      success: 'Asset saved.',
      onSuccess: onClose,
    },
  );
  return (
    <Dialog title="Edit asset" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit({ name: name.trim(), symbol: symbol.trim() }); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Name" error={form.fieldErrors.name}><input value={name} maxLength={limits.assetName} onChange={(event) => setName(event.target.value)} /></Field>
        <Field label="Symbol" error={form.fieldErrors.symbol}><input value={symbol} maxLength={limits.assetSymbol} onChange={(event) => setSymbol(event.target.value)} /></Field>
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Save asset</Button></div>
      </form>
    </Dialog>
  );
}
