import { Navigate, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useApi, useMe } from '../context/providers';
import { Button, ErrorNote, Field, Page } from '../components/ui';
import { collect, limits, maxLength, required } from '../lib/rules';
import { useFormMutation } from '../lib/forms';

/** `/`: straight to the first tenant; an account without one creates it here. */
export function Home() {
  const me = useMe();
  const first = me.data?.memberships[0];
  if (first) return <Navigate to="/t/$tenantId" params={{ tenantId: first.tenant.id }} replace />;
  return (
    <main id="main" className="main narrow">
      <CreateTenant intro="You are not a member of any tenant yet. Create one to start (you become its super admin), or ask an admin to invite your email." />
    </main>
  );
}

export function NewTenant() {
  return (
    <main id="main" className="main narrow">
      <CreateTenant />
    </main>
  );
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, limits.slug.max);
}

function CreateTenant({ intro }: { intro?: string }) {
  const api = useApi();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(false);
  const form = useFormMutation((body: { name: string; slug: string }) => api.call(api.portal.createTenant({ body })), {
    validate: (body) =>
      collect([
        required('name', body.name),
        maxLength('name', body.name, limits.tenantName),
        required('slug', body.slug),
        ['slug', body.slug.length < limits.slug.min || body.slug.length > limits.slug.max, `${limits.slug.min} to ${limits.slug.max} characters.`],
        ['slug', !limits.slug.pattern.test(body.slug), 'Lowercase letters and digits, words joined by single hyphens.'],
      ]),
    invalidate: [['me']],
    success: (tenant) => `Tenant ${tenant.name} created.`,
    onSuccess: (tenant) => void navigate({ to: '/t/$tenantId', params: { tenantId: tenant.id } }),
  });
  return (
    <Page title="Create a tenant">
      {intro ? <p>{intro}</p> : null}
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({ name: name.trim(), slug });
        }}
      >
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Name" error={form.fieldErrors.name}>
          <input
            value={name}
            maxLength={limits.tenantName}
            onChange={(event) => {
              setName(event.target.value);
              if (!slugTouched) setSlug(slugOf(event.target.value));
            }}
          />
        </Field>
        <Field label="Slug" error={form.fieldErrors.slug} hint="Used in URLs; unique across the platform.">
          <input
            value={slug}
            maxLength={limits.slug.max}
            onChange={(event) => {
              setSlugTouched(true);
              setSlug(event.target.value);
            }}
          />
        </Field>
        <Button type="submit" variant="primary" busy={form.busy}>Create tenant</Button>
      </form>
    </Page>
  );
}
