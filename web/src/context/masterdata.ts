import { useQuery } from '@tanstack/react-query';
import { useApi } from './providers';

/** The platform's fixed lists (countries, statuses...): no token, the same for every tenant, cached for the page's life. */
export function useMasterdata() {
  const api = useApi();
  return useQuery({ queryKey: ['masterdata'], queryFn: () => api.call(api.portal.getMasterdata()), staleTime: Infinity });
}

export function useCountryName(): (code: string | null) => string {
  const masterdata = useMasterdata();
  return (code) => (code ? masterdata.data?.countries.find((country) => country.code === code)?.name ?? code : '—');
}
