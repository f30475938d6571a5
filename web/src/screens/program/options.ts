import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../context/providers';
import { keys } from '../../lib/keys';

/** Choices for selects: the first 100 (the API's page maximum) tiers or onchain assets of the tenant. */
export function useTierOptions(tenantId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...keys.tiers(tenantId), 'all'],
    queryFn: () => api.call(api.portal.listTiers({ params: { path: { tenantId }, query: { limit: 100 } } })),
  });
}

export function useAssetOptions(tenantId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...keys.assets(tenantId), 'all'],
    queryFn: () => api.call(api.portal.listOnchainAssets({ params: { path: { tenantId }, query: { limit: 100 } } })),
  });
}
