import { createWebChannel, updateWebChannel } from 'virtual:request-validators';
import { type FormEvent, useCallback, useState } from 'react';
import { isChangedElsewhere } from '../api/client.ts';
import type { WebChannel } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { closeOnEscape } from '../components/close-on-escape.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../components/FieldError.tsx';
import { Loading } from '../components/Loading.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';
import { SubmitButton } from '../components/SubmitButton.tsx';
import { TableRegion } from '../components/TableRegion.tsx';
import { focusAfterRender } from '../focus-on-navigation.ts';
import { useSubmission } from '../forms/use-submission.ts';
import { useLoad } from '../hooks.ts';

const FIELDS = ['slug', 'name'] as const;
const RENAME_FIELDS = ['name'] as const;
const CHANNEL_FIELD_LABELS = { slug: 'Slug', name: 'Name' };

export function ChannelsPage() {
  usePageTitle('Web channels');
  const { api } = useApp();
  const load = useCallback((signal: AbortSignal) => api.listChannelsTagged(signal), [api]);
  const [list, reload] = useLoad(load);
  const [editing, setEditing] = useState<string | null>(null);
  // A closed rename form gives the focus back to its channel's Rename button.
  const closeRename = (slug: string) => {
    setEditing(null);
    focusAfterRender(() => document.getElementById(`rename-button-${slug}`));
  };
  const [notice, setNotice] = useState('');
  const channels = list.state === 'ready' ? list.value.value.channels : null;
  const registryEtag = list.state === 'ready' ? list.value.etag : undefined;

  return (
    <>
      <h1>Web channels</h1>
      <p className="lead">
        The registry of web channels. A client bound to a channel sees each product’s web visibility for that
        channel.
      </p>
      <NewChannelForm
        onSubmitting={() => setNotice('')}
        onCreated={(channel) => {
          setNotice(`Channel ${channel.slug} was added.`);
          reload();
        }}
      />
      <section className="panel" aria-labelledby="channels-list-heading">
        <h2 id="channels-list-heading">All web channels</h2>
        <p className="notice" role="status">
          {notice}
        </p>
        {list.state === 'loading' && <Loading label="Loading web channels…" />}
        {list.state === 'error' && (
          <ErrorAlert error={list.error} title="The web channels could not be loaded." />
        )}
        {channels !== null && channels.length === 0 && (
          <p className="empty">No web channels yet — add the first one.</p>
        )}
        {channels !== null && channels.length > 0 && (
          <TableRegion label="Web channels table">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Slug</th>
                  <th scope="col">Name</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {channels.map((channel) => (
                  <tr key={channel.slug}>
                    <th scope="row">
                      <code>{channel.slug}</code>
                    </th>
                    <td>
                      {editing === channel.slug ? (
                        <RenameChannelForm
                          channel={channel}
                          registryEtag={registryEtag}
                          onReload={() => {
                            closeRename(channel.slug);
                            setNotice('The web channels were reloaded: rename again from the current names.');
                            reload();
                          }}
                          onCancel={() => closeRename(channel.slug)}
                          onSaved={(saved) => {
                            closeRename(channel.slug);
                            setNotice(`Channel ${saved.slug} was renamed to ${saved.name}.`);
                            reload();
                          }}
                        />
                      ) : (
                        channel.name
                      )}
                    </td>
                    <td>
                      {editing !== channel.slug && (
                        <button
                          id={`rename-button-${channel.slug}`}
                          type="button"
                          className="button-small"
                          onClick={() => {
                            setNotice('');
                            setEditing(channel.slug);
                          }}
                        >
                          Rename<span className="visually-hidden"> {channel.slug}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
    </>
  );
}

function NewChannelForm({
  onSubmitting,
  onCreated,
}: {
  /** A new attempt: what the page said of the last one no longer stands beside its outcome. */
  readonly onSubmitting: () => void;
  readonly onCreated: (channel: WebChannel) => void;
}) {
  const { api } = useApp();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const { busy, errors, fieldErrors, run, retry, accepts } = useSubmission(FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmitting();
    const body = { slug: slug.trim(), name: name.trim() };
    if (!accepts(createWebChannel, body, CHANNEL_FIELD_LABELS)) return;
    return run(async () => {
      onCreated(await api.createChannel(body));
      setSlug('');
      setName('');
    });
  };
  return (
    <section className="panel" aria-labelledby="new-channel-heading">
      <h2 id="new-channel-heading">New web channel</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="new-channel-slug">Slug</label>
          <input
            id="new-channel-slug"
            type="text"
            value={slug}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setSlug(e.target.value)}
            {...describedBy('new-channel-slug-error', fieldErrors.slug, 'new-channel-slug-hint')}
          />
          <p className="hint" id="new-channel-slug-hint">
            Kebab-case, for example eu-shop. It cannot be changed later.
          </p>
          <FieldErrorText id="new-channel-slug-error" messages={fieldErrors.slug} />
        </div>
        <div className="field">
          <label htmlFor="new-channel-name">Name</label>
          <input
            id="new-channel-name"
            type="text"
            value={name}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
            {...describedBy('new-channel-name-error', fieldErrors.name)}
          />
          <FieldErrorText id="new-channel-name-error" messages={fieldErrors.name} />
        </div>
        {errors !== null && (
          <ErrorAlert
            error={errors.error}
            title="The channel was not added."
            extra={errors.unmatched}
            onRetry={retry}
          />
        )}
        <SubmitButton busy={busy}>Create channel</SubmitButton>
      </form>
    </section>
  );
}

function RenameChannelForm({
  channel,
  registryEtag,
  onReload,
  onSaved,
  onCancel,
}: {
  readonly channel: WebChannel;
  /** The registry's version this page shows: a rename is made against it only. */
  readonly registryEtag: string | undefined;
  readonly onReload: () => void;
  readonly onSaved: (channel: WebChannel) => void;
  readonly onCancel: () => void;
}) {
  const { api } = useApp();
  const id = `rename-${channel.slug}`;
  const [name, setName] = useState(channel.name);
  const { busy, errors, fieldErrors, run, retry, accepts } = useSubmission(RENAME_FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { slug: channel.slug, name: name.trim() };
    if (!accepts(updateWebChannel, body, CHANNEL_FIELD_LABELS)) return;
    return run(async () => onSaved(await api.updateChannel(body, registryEtag)));
  };
  const changedElsewhere = errors !== null && isChangedElsewhere(errors.error);
  return (
    <form className="inline-form" onSubmit={submit} onKeyDown={closeOnEscape(onCancel)} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>New name of {channel.slug}</label>
        <input
          id={`${id}-name`}
          // Opened by its Rename button: the name to change is where the administrator goes next.
          // biome-ignore lint/a11y/noAutofocus: opened on request, not on page load.
          autoFocus
          type="text"
          value={name}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
          {...describedBy(`${id}-name-error`, fieldErrors.name)}
        />
        <FieldErrorText id={`${id}-name-error`} messages={fieldErrors.name} />
      </div>
      {changedElsewhere && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">The channel was not renamed.</p>
          <p>
            The web channels were changed by someone else since this page loaded them. Reload to see the
            current names, then rename again.
          </p>
          <button type="button" className="button-secondary" onClick={onReload}>
            Reload
          </button>
        </div>
      )}
      {errors !== null && !changedElsewhere && (
        <ErrorAlert
          error={errors.error}
          title="The channel was not renamed."
          extra={errors.unmatched}
          onRetry={retry}
        />
      )}
      <div className="button-row">
        <SubmitButton busy={busy}>Save</SubmitButton>
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
