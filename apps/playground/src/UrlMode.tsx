import { useAgentSelector } from '@aguikit/react';
import { useEffect, useState } from 'react';
import type { PlaygroundMessages } from './i18n.js';

/** A scenario the local agent server serves, as its `GET /agents` lists it. */
export interface LocalEndpoint {
  id: string;
  title: string;
  url: string;
}

type Listing = { state: 'loading' } | { state: 'ready'; endpoints: LocalEndpoint[] } | { state: 'absent' };

/**
 * The local agent server's endpoints, read from its `GET /agents` through the
 * page's own origin (the playground's `/agents` proxy): one `POST /agents/:id`
 * per scenario.
 */
export function useLocalEndpoints(): Listing {
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    fetch('/agents', { headers: { accept: 'application/json' }, signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const list = (await res.json()) as { id: string; title: string }[];
        if (!Array.isArray(list)) throw new Error('not a list');
        setListing({
          state: 'ready',
          endpoints: list.map(({ id, title }) => ({
            id,
            title,
            url: new URL(`/agents/${encodeURIComponent(id)}`, window.location.origin).href,
          })),
        });
      })
      .catch(() => {
        if (!abort.signal.aborted) setListing({ state: 'absent' });
      });
    return () => abort.abort();
  }, []);
  return listing;
}

export interface UrlHelpProps {
  t: PlaygroundMessages;
  /** The endpoint connected to ('' before the first). */
  url: string;
  /** The id of the help text, for the endpoint field's `aria-describedby`. */
  id: string;
  /** Connects to one of the local server's endpoints. */
  onPick(url: string): void;
  /** Brings the endpoint field into focus, its text selected. */
  onEdit(): void;
  /** Scenario titles in the page's language. */
  titleOf(id: string, fallback: string): string;
}

/**
 * What *AG-UI URL* mode needs: what to enter, the local agent server's
 * endpoints as choices, and, after a request to the endpoint failed, a way
 * back to the address.
 */
export function UrlHelp({ t, url, id, onPick, onEdit, titleOf }: UrlHelpProps) {
  const listing = useLocalEndpoints();
  const failure = useAgentSelector((s) => s.failure);
  const failed = failure !== undefined && failure.code !== 'CONNECTION_LOST' && url !== '';
  return (
    <section className="pg__urlhelp" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="pg__urlhelp-heading">
        {t.url.heading}
      </h2>
      <p id={id}>{t.url.explain}</p>
      {failed ? (
        <p role="alert" className="pg__urlerror">
          <span>{t.url.failed(url, failure.code, failure.status)}</span>{' '}
          <button type="button" className="agk-button" data-size="sm" onClick={onEdit}>
            {t.url.edit}
          </button>
        </p>
      ) : url === '' ? (
        <p>{t.url.empty}</p>
      ) : null}
      {listing.state === 'loading' ? <p>{t.url.loading}</p> : null}
      {listing.state === 'absent' ? <p>{t.url.noServer}</p> : null}
      {listing.state === 'ready' ? (
        <label className="pg__field">
          {t.url.local}
          <select
            className="agk-select"
            value={listing.endpoints.some((e) => e.url === url) ? url : ''}
            onChange={(e) => e.target.value && onPick(e.target.value)}
          >
            <option value="">{t.url.choose}</option>
            {listing.endpoints.map((e) => (
              <option key={e.id} value={e.url}>
                {titleOf(e.id, e.title)}: /agents/{e.id}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </section>
  );
}
