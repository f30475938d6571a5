import type { Country } from '../domain/countries';
import type { CountryView } from '../schemas/country';

/** Flag images from flagcdn.com (free, CDN-served, one SVG per lowercase alpha-2 code). */
const FLAG_URL = 'https://flagcdn.com/';

export function toCountryView(country: Country): CountryView {
  return {
    id: country.code,
    code: country.code,
    name: country.name,
    icon_url: `${FLAG_URL}${country.code.toLowerCase()}.svg`,
    status: 'active',
  };
}
