import en from 'i18n-iso-countries/langs/en.json';

export type Country = { code: string; name: string };

/**
 * ISO 3166-1 countries (alpha-2 code, English name) from `i18n-iso-countries`, sorted by name.
 * Only the English locale is imported so the Worker bundle does not carry every language. Where the
 * package lists several names, the first is its official one (what its `select: 'official'` picks).
 */
export const countries: readonly Country[] = Object.entries(en.countries)
  .map(([code, names]) => ({ code, name: typeof names === 'string' ? names : (names[0] ?? code) }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const byCode = new Map(countries.map((country) => [country.code, country]));

/** The country of an alpha-2 code (case-insensitive), or undefined. */
export function findCountry(code: string): Country | undefined {
  return byCode.get(code.toUpperCase());
}
