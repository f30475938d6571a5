import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { Button, ErrorNote, Field } from '../../components/ui';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, isWholeNumber, limits, maxLength, required } from '../../lib/rules';
import { useAssetOptions, useTierOptions } from './options';

type Reward = Schemas['Reward'];
type Status = Reward['status'];
export type RewardDraft = { title: string; description: string; xp_cost: string; status: Status; min_tier_id: string; onchain_asset_id: string; stock: string; metadata: string };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function validateReward(draft: RewardDraft) {
  return collect([
    required('title', draft.title),
    maxLength('title', draft.title, limits.rewardTitle),
    maxLength('description', draft.description, limits.description),
    required('xp_cost', draft.xp_cost),
    ['xp_cost', !limits.xpCost.test(draft.xp_cost), 'A whole number from 1 to 1,000,000,000.'],
    ['stock', draft.stock.trim() !== '' && (!isWholeNumber(draft.stock) || Number(draft.stock) > limits.stockMax), `Empty for unlimited, or a whole number from 0 to ${limits.stockMax.toLocaleString('en-US')}.`],
    ['metadata', draft.metadata.trim() !== '' && !parseJson(draft.metadata).ok, 'Not valid JSON.'],
  ]);
}

function bodyOf(draft: RewardDraft) {
  const metadata = draft.metadata.trim() === '' ? null : parseJson(draft.metadata);
  return {
    title: draft.title.trim(),
    description: draft.description,
    xp_cost: draft.xp_cost.trim(),
    status: draft.status,
    min_tier_id: draft.min_tier_id || null,
    onchain_asset_id: draft.onchain_asset_id || null,
    stock: draft.stock.trim() === '' ? null : Number(draft.stock),
    metadata: metadata && metadata.ok ? metadata.value : null,
  };
}

export function RewardForm({ reward, onDone }: { reward: Reward | null; onDone: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const tiers = useTierOptions(tenantId);
  const assets = useAssetOptions(tenantId);
  const [draft, setDraft] = useState<RewardDraft>({
    title: reward?.title ?? '', description: reward?.description ?? '', xp_cost: reward?.xp_cost ?? '', status: reward?.status ?? 'draft',
    min_tier_id: reward?.min_tier_id ?? '', onchain_asset_id: reward?.onchain_asset_id ?? '', stock: reward?.stock === null || reward?.stock === undefined ? '' : String(reward.stock),
    metadata: reward && reward.metadata !== null && reward.metadata !== undefined ? JSON.stringify(reward.metadata, null, 2) : '',
  });
  const form = useFormMutation(
    (values: RewardDraft) =>
      reward
        ? api.call(api.portal.updateReward({ params: { path: { tenantId, rewardId: reward.id } }, body: bodyOf(values) }))
        : api.call(api.portal.createReward({ params: { path: { tenantId } }, body: bodyOf(values) })),
    { validate: validateReward, invalidate: [keys.rewards(tenantId)], success: (saved) => `Reward ${saved.title} saved.`, onSuccess: onDone },
  );
  const set = (name: keyof RewardDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <Dialog title={reward ? `Edit ${reward.title}` : 'New reward'} onClose={onDone}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Title" error={form.fieldErrors.title}><input value={draft.title} maxLength={limits.rewardTitle} onChange={set('title')} /></Field>
        <Field label="Description" error={form.fieldErrors.description}><textarea rows={2} maxLength={limits.description} value={draft.description} onChange={set('description')} /></Field>
        <Field label="XP cost" error={form.fieldErrors.xp_cost}><input inputMode="numeric" value={draft.xp_cost} onChange={set('xp_cost')} /></Field>
        <Field label="Status" error={form.fieldErrors.status} hint="Only active rewards can be redeemed">
          <select value={draft.status} onChange={set('status')}>
            <option value="draft">draft</option><option value="active">active</option><option value="archived">archived</option>
          </select>
        </Field>
        <Field label="Stock" error={form.fieldErrors.stock} hint="Units left; empty for unlimited"><input inputMode="numeric" value={draft.stock} onChange={set('stock')} /></Field>
        <Field label="Minimum tier" error={form.fieldErrors.min_tier_id}>
          <select value={draft.min_tier_id} onChange={set('min_tier_id')}>
            <option value="">No tier needed</option>
            {(tiers.data?.items ?? []).map((tier) => <option key={tier.id} value={tier.id}>{tier.tier_name}</option>)}
          </select>
        </Field>
        <Field label="Onchain asset delivered" error={form.fieldErrors.onchain_asset_id} hint="Sent to the customer's wallet on redemption">
          <select value={draft.onchain_asset_id} onChange={set('onchain_asset_id')}>
            <option value="">None (off-chain reward)</option>
            {(assets.data?.items ?? []).map((asset) => <option key={asset.id} value={asset.id ?? ''}>{asset.name ?? asset.key ?? asset.id} ({asset.type})</option>)}
          </select>
        </Field>
        <Field label="Metadata (JSON)" error={form.fieldErrors.metadata} hint='e.g. {"sku": "COFFEE-1", "onchain_amount": "1"}'><textarea rows={3} value={draft.metadata} onChange={set('metadata')} /></Field>
        <div className="dialog-footer"><Button onClick={onDone}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>{reward ? 'Save reward' : 'Create reward'}</Button></div>
      </form>
    </Dialog>
  );
}
