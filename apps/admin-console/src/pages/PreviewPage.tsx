import { type FormEvent, useCallback, useRef, useState } from 'react';
import type { PreviewQuery, SearchPreview } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { ChannelSelect } from '../components/ChannelSelect.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../components/FieldError.tsx';
import { Loading } from '../components/Loading.tsx';
import { ScopeCheckboxes } from '../components/ScopeCheckboxes.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';
import { SubmitButton } from '../components/SubmitButton.tsx';
import { clientChoiceLabel } from '../domain/clients.ts';
import { buildPreviewQuery, DEFAULT_PREVIEW_FORM, type PreviewFormValues } from '../domain/preview.ts';
import { SORT_COLUMNS } from '../domain/scopes.ts';
import { type FormErrorState, formErrorState } from '../forms/form-errors.ts';
import { useLoad } from '../hooks.ts';
import { useChannelOptions } from './clients/use-channels.ts';
import { PreviewResults } from './preview/PreviewResults.tsx';

const FIELDS = [
  'asClient',
  'scopes',
  'channel',
  'q',
  'brandName',
  'sort',
  'order',
  'fields',
  'displayOnWeb',
  'includeArchived',
  'updatedAfter',
  'size',
] as const;

type Result =
  | { readonly state: 'idle' }
  | {
      readonly state: 'ready';
      /** The query of each page shown so far, the first without a syncToken: Previous goes one back. */
      readonly pages: readonly PreviewQuery[];
      readonly preview: SearchPreview;
    };

export function PreviewPage() {
  usePageTitle('See what an integrator sees');
  const { api } = useApp();
  const loadClients = useCallback((signal: AbortSignal) => api.listClients('all', signal), [api]);
  const [clients] = useLoad(loadClients);
  const { channels } = useChannelOptions();
  const [form, setForm] = useState<PreviewFormValues>(DEFAULT_PREVIEW_FORM);
  const [result, setResult] = useState<Result>({ state: 'idle' });
  const [loading, setLoading] = useState(false);
  const inFlight = useRef(false);
  const [errors, setErrors] = useState<FormErrorState | null>(null);

  const set = <K extends keyof PreviewFormValues>(key: K, value: PreviewFormValues[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const run = async (pages: readonly PreviewQuery[]) => {
    const query = pages.at(-1);
    if (query === undefined || inFlight.current) return;
    inFlight.current = true;
    setErrors(null);
    setLoading(true);
    try {
      setResult({ state: 'ready', pages, preview: await api.previewSearch(query) });
    } catch (error) {
      setErrors(formErrorState(error, FIELDS));
    } finally {
      inFlight.current = false;
      setLoading(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.subjectKind === 'client' && form.clientId === '') {
      setErrors({
        error: new Error('Choose the client whose view to show.'),
        fields: { asClient: ['Choose a client.'] },
        unmatched: [],
      });
      return;
    }
    void run([buildPreviewQuery(form)]);
  };

  const nextPage = () => {
    if (result.state !== 'ready') return;
    const syncToken = result.preview.search?.syncToken;
    const first = result.pages[0];
    if (syncToken === null || syncToken === undefined || first === undefined) return;
    void run([...result.pages, { ...first, syncToken }]);
  };
  const previousPage = () => {
    if (result.state === 'ready' && result.pages.length > 1) void run(result.pages.slice(0, -1));
  };

  const fe = errors?.fields ?? {};
  const clientList = clients.state === 'ready' ? clients.value.clients : [];
  return (
    <>
      <h1>See what an integrator sees</h1>
      <p className="lead">
        Runs the product search as a client would, and shows exactly the projected records that client would
        receive — or why its token would be refused.
      </p>
      <section className="panel" aria-labelledby="preview-form-heading">
        <h2 id="preview-form-heading">Whose view, which search</h2>
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>Subject</legend>
            <div className="radio">
              <input
                id="preview-subject-client"
                type="radio"
                name="preview-subject"
                checked={form.subjectKind === 'client'}
                onChange={() => set('subjectKind', 'client')}
              />
              <label htmlFor="preview-subject-client">An existing client</label>
            </div>
            <div className="radio">
              <input
                id="preview-subject-hypothetical"
                type="radio"
                name="preview-subject"
                checked={form.subjectKind === 'hypothetical'}
                onChange={() => set('subjectKind', 'hypothetical')}
              />
              <label htmlFor="preview-subject-hypothetical">Scopes and channel (a hypothetical client)</label>
            </div>
            {form.subjectKind === 'client' ? (
              <div className="field">
                <label htmlFor="preview-client">Client</label>
                <select
                  id="preview-client"
                  value={form.clientId}
                  onChange={(e) => set('clientId', e.target.value)}
                  {...describedBy('preview-client-error', fe.asClient)}
                >
                  <option value="">
                    {clients.state === 'loading' ? 'Loading clients…' : 'Choose a client'}
                  </option>
                  {clientList.map((client) => (
                    <option key={client.clientId} value={client.clientId}>
                      {clientChoiceLabel(client, Date.now())}
                    </option>
                  ))}
                </select>
                <FieldErrorText id="preview-client-error" messages={fe.asClient} />
                {clients.state === 'error' && (
                  <ErrorAlert error={clients.error} title="The clients could not be loaded." />
                )}
              </div>
            ) : (
              <>
                <ScopeCheckboxes
                  idPrefix="preview"
                  value={form.scopes}
                  onChange={(scopes) => set('scopes', scopes)}
                  errors={fe.scopes}
                />
                <ChannelSelect
                  id="preview-channel"
                  channels={channels}
                  value={form.channel}
                  onChange={(slug) => set('channel', slug)}
                  errors={fe.channel}
                />
              </>
            )}
          </fieldset>
          <fieldset>
            <legend>Search</legend>
            <div className="field-grid">
              <TextField
                id="preview-q"
                label="Search terms (q)"
                value={form.q}
                errors={fe.q}
                onChange={(v) => set('q', v)}
              />
              <TextField
                id="preview-brand"
                label="Brand name"
                value={form.brandName}
                errors={fe.brandName}
                onChange={(v) => set('brandName', v)}
              />
              <div className="field">
                <label htmlFor="preview-sort">Sort by</label>
                <select
                  id="preview-sort"
                  value={form.sort}
                  onChange={(e) => set('sort', e.target.value as PreviewFormValues['sort'])}
                  {...describedBy('preview-sort-error', fe.sort)}
                >
                  <option value="">Relevance (default)</option>
                  {SORT_COLUMNS.map((column) => (
                    <option key={column} value={column}>
                      {column}
                    </option>
                  ))}
                </select>
                <FieldErrorText id="preview-sort-error" messages={fe.sort} />
              </div>
              <div className="field">
                <label htmlFor="preview-order">Order</label>
                <select
                  id="preview-order"
                  value={form.order}
                  onChange={(e) => set('order', e.target.value as PreviewFormValues['order'])}
                  {...describedBy('preview-order-error', fe.order)}
                >
                  <option value="asc">Ascending</option>
                  <option value="desc">Descending</option>
                </select>
                <FieldErrorText id="preview-order-error" messages={fe.order} />
              </div>
              <TextField
                id="preview-fields"
                label="Fields (comma-separated)"
                value={form.fields}
                errors={fe.fields}
                placeholder="id,productCode,name"
                onChange={(v) => set('fields', v)}
              />
              <div className="field">
                <label htmlFor="preview-display-on-web">Display on web</label>
                <select
                  id="preview-display-on-web"
                  value={form.displayOnWeb}
                  onChange={(e) => set('displayOnWeb', e.target.value as PreviewFormValues['displayOnWeb'])}
                  {...describedBy('preview-display-on-web-error', fe.displayOnWeb)}
                >
                  <option value="">Any</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
                <FieldErrorText id="preview-display-on-web-error" messages={fe.displayOnWeb} />
              </div>
              <TextField
                id="preview-updated-after"
                label="Updated after (ISO date-time)"
                value={form.updatedAfter}
                errors={fe.updatedAfter}
                placeholder="2025-01-01T00:00:00Z"
                onChange={(v) => set('updatedAfter', v)}
              />
              <TextField
                id="preview-size"
                label="Page size"
                type="number"
                value={form.size}
                errors={fe.size}
                onChange={(v) => set('size', v)}
              />
            </div>
            <div className="checkbox">
              <input
                id="preview-include-archived"
                type="checkbox"
                checked={form.includeArchived}
                onChange={(e) => set('includeArchived', e.target.checked)}
                {...describedBy('preview-include-archived-error', fe.includeArchived)}
              />
              <label htmlFor="preview-include-archived">Include archived products</label>
              <FieldErrorText id="preview-include-archived-error" messages={fe.includeArchived} />
            </div>
          </fieldset>
          {errors !== null && (
            <ErrorAlert error={errors.error} title="The preview failed." extra={errors.unmatched} />
          )}
          <SubmitButton busy={loading}>Run search</SubmitButton>
        </form>
      </section>
      {loading && result.state === 'idle' && (
        <section className="panel" aria-labelledby="preview-results-heading" aria-busy="true">
          <h2 id="preview-results-heading">What the integrator receives</h2>
          <Loading label="Loading results…" />
        </section>
      )}
      {result.state === 'ready' && (
        <PreviewResults
          preview={result.preview}
          fields={result.pages[0]?.fields}
          page={result.pages.length}
          busy={loading}
          onNextPage={nextPage}
          onPreviousPage={previousPage}
        />
      )}
    </>
  );
}

function TextField({
  id,
  label,
  value,
  errors,
  onChange,
  type = 'text',
  placeholder,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly errors: readonly string[] | undefined;
  readonly onChange: (value: string) => void;
  readonly type?: 'text' | 'number';
  readonly placeholder?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete="off"
        {...(placeholder !== undefined ? { placeholder } : {})}
        {...(type === 'number' ? { min: 1, max: 100 } : {})}
        onChange={(e) => onChange(e.target.value)}
        {...describedBy(`${id}-error`, errors)}
      />
      <FieldErrorText id={`${id}-error`} messages={errors} />
    </div>
  );
}
