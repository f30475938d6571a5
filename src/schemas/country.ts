import { z } from '@hono/zod-openapi';

/** A country as the API shows it (masterdata, top-countries analytics); `id` and `code` are ISO alpha-2. */
export const countrySchema = z
  .strictObject({
    id: z.string().openapi({ example: 'NL' }),
    code: z.string().openapi({ example: 'NL' }),
    name: z.string().openapi({ example: 'Netherlands' }),
    icon_url: z.url().openapi({ example: 'https://flagcdn.com/nl.svg' }),
    status: z.literal('active'),
  })
  .openapi('Country');

export type CountryView = z.infer<typeof countrySchema>;
