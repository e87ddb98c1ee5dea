import { AgentProvider, type AgentStore, createAgentStore, useAgentRun } from '@aguikit/react';
import { scenarios } from '@aguikit/scenarios';
import { AgentChat, AgentLocaleProvider, EventTimelinePanel, StateInspectorPanel } from '@aguikit/ui';
import { Activity, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { LANGS, type Lang, langFromSearch, messagesFor, uiLocaleFor } from './i18n.js';
import { Replay } from './Replay.js';
import { downloadSession, type LoadedSession, readSessionFile } from './recording.js';
import { type Connection, connectionFromLocation, connectionKey, connectionToSearch, type Mode, sourceFor } from './sources.js';
import { Tabs } from './Tabs.js';
import { UrlHelp } from './UrlMode.js';

type Theme = 'light' | 'dark';
type Panel = 'state' | 'events';

const SPEEDS = [0.5, 1, 2, 5, 20];
const MODES: readonly Mode[] = ['browser', 'server', 'url'];

function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  return [theme, setTheme];
}

/** One store per connection: changing the scenario or the source starts a new thread; a new speed applies from the next run. */
function useConnectionStore(connection: Connection): AgentStore {
  const speed = useRef(connection.speed);
  useEffect(() => {
    speed.current = connection.speed;
  }, [connection.speed]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when the thread must be new.
  const store = useMemo(
    () =>
      createAgentStore({
        source: sourceFor(connection, () => speed.current),
        ...(connection.approvalWindowMs !== undefined ? { forwardedProps: { approvalWindowMs: connection.approvalWindowMs } } : {}),
      }),
    [connectionKey(connection)],
  );
  // The store a swap replaces is destroyed: its stream and tools stop with it.
  useEffect(() => store.retain(), [store]);
  return store;
}

/**
 * For a bar that scrolls sideways (the phone's header): `data-more` says on
 * which side it goes on (`start`, `end`, both or neither), which the CSS
 * shows as a fade, and a control Tab reaches is brought whole onto the
 * screen, clear of the fade, not left half off it. A ref callback.
 */
function useSidewaysBar<T extends HTMLElement>(): (node: T | null) => void {
  const off = useRef<(() => void) | undefined>(undefined);
  return useCallback((node: T | null) => {
    off.current?.();
    off.current = undefined;
    if (!node) return;
    const onFocusIn = (e: FocusEvent) => {
      // The control with its label: the file control's input is a hidden pixel inside the label the reader sees.
      if (e.target instanceof HTMLElement) (e.target.closest('label') ?? e.target).scrollIntoView({ block: 'nearest', inline: 'nearest' });
    };
    const mark = () => {
      const start = node.scrollLeft > 1;
      const end = node.scrollLeft + node.clientWidth < node.scrollWidth - 1;
      node.dataset.more = [start ? 'start' : '', end ? 'end' : ''].filter(Boolean).join(' ');
    };
    mark();
    node.addEventListener('focusin', onFocusIn);
    node.addEventListener('scroll', mark, { passive: true });
    const resized = new ResizeObserver(mark);
    resized.observe(node);
    // What the bar holds changes its width under a scroll position that stays (a mode's controls, a language's words).
    const changed = new MutationObserver(mark);
    changed.observe(node, { childList: true, subtree: true, characterData: true });
    off.current = () => {
      node.removeEventListener('focusin', onFocusIn);
      node.removeEventListener('scroll', mark);
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
}

/**
 * Sends the scenario's prompt. Unavailable while a run is in flight or the
 * agent waits for an answer, as the composer's Send is (aria-disabled, so a
 * keyboard user keeps focus on it).
 */
function SendPrompt({ prompt, label }: { prompt: string; label: string }) {
  const agent = useAgentRun();
  const unavailable = agent.inFlight !== undefined || agent.interrupts.length > 0;
  return (
    <button
      type="button"
      className="agk-button"
      data-size="sm"
      aria-disabled={unavailable ? true : undefined}
      onClick={() => {
        if (!unavailable) void agent.run(prompt);
      }}
    >
      {label}
    </button>
  );
}

/**
 * Focus in the composer's field (reached with Tab, or given back after a decision) brings the whole composer on
 * screen: its field with its focus ring, Send and its note. The browser itself scrolls only the caret's line into
 * view, which at 200% zoom, where the page scrolls and the chat is a screen tall under the bar, left the rest of the
 * composer under the screen's bottom edge. A ref callback for the element around the chat.
 */
function revealComposerOnFocus(node: HTMLElement | null): (() => void) | undefined {
  if (!node) return undefined;
  const onFocusIn = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement && e.target.matches('.agk-composer__input'))
      e.target.closest('.agk-composer')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  node.addEventListener('focusin', onFocusIn);
  return () => node.removeEventListener('focusin', onFocusIn);
}

/** The address typed, when it is a full http(s) URL; undefined otherwise. */
function endpointUrl(typed: string): string | undefined {
  try {
    const url = new URL(typed.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function App() {
  const [connection, setConnection] = useState<Connection>(() => connectionFromLocation(window.location.search));
  const [lang, setLang] = useState<Lang>(() => langFromSearch(window.location.search));
  const [urlDraft, setUrlDraft] = useState(connection.url);
  const [urlInvalid, setUrlInvalid] = useState(false);
  const [theme, setTheme] = useTheme();
  const [panel, setPanel] = useState<Panel>('state');
  const [replay, setReplay] = useState<LoadedSession | undefined>();
  /** Counts the files loaded: each is a replay of its own (the scrubber at its end), the same file again too. */
  const [loads, setLoads] = useState(0);
  const barRef = useSidewaysBar<HTMLElement>();
  // While a recording plays, the live thread is hidden: what acts on it (its scenario, agent, speed, new thread, download) waits.
  const replaying = replay !== undefined;
  const fileInput = useRef<HTMLInputElement>(null);
  const [loadError, setLoadError] = useState<string | undefined>();
  /** The name of the file being read; only the file picked last is replayed, whichever is read first. */
  const [reading, setReading] = useState<string | undefined>();
  /** How far the file being read is read through, of its entries. */
  const [progress, setProgress] = useState<{ read: number; of: number } | undefined>();
  const picks = useRef(0);
  /** Stops the read of a file picked before the last one. */
  const superseded = useRef<AbortController | undefined>(undefined);
  const endpointInput = useRef<HTMLInputElement>(null);
  /** The radio of the agent in use. */
  const checkedMode = useRef<HTMLInputElement>(null);
  const ids = useId();
  const store = useConnectionStore(connection);
  const t = messagesFor(lang);
  const scenario = scenarios[connection.scenarioId as keyof typeof scenarios];
  const titleOf = (id: string, fallback: string) => t.scenarios[id]?.title ?? fallback;

  useEffect(() => {
    window.history.replaceState(null, '', connectionToSearch(connection, lang));
  }, [connection, lang]);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t.title;
  }, [lang, t]);

  // A file's load error is about that attempt: whatever the reader does next (another agent, a new thread) ends it.
  const update = (patch: Partial<Connection>) => {
    setLoadError(undefined);
    setConnection((c) => ({ ...c, ...patch }));
  };
  /** Whether the thread may go: it holds nothing, or the reader confirms that it is discarded. */
  const keepsNothing = () => {
    const { thread, inFlight } = store.getState();
    return (thread.messages.ids.length === 0 && inFlight === undefined) || window.confirm(t.discardThread);
  };
  /**
   * Another scenario or agent is a new thread. An arrow key on the select or
   * the radios changes it at once, so a thread that holds anything is only
   * discarded once the reader says so.
   */
  const switchTo = (patch: Partial<Connection>) => {
    if (keepsNothing()) update(patch);
    // Declined on a radio: the check goes back to the agent in use, and focus with it.
    else if (patch.mode) checkedMode.current?.focus();
  };
  const newThread = () => {
    setLoadError(undefined);
    store.getState().reset();
  };
  const dismissLoadError = () => {
    setLoadError(undefined);
    fileInput.current?.focus();
  };

  const connectTo = (typed: string) => {
    const url = endpointUrl(typed);
    setUrlInvalid(!url);
    if (!url) {
      endpointInput.current?.focus();
      return;
    }
    // The same address again is a new thread too: a fresh start after a failure.
    if (url === connection.url) store.getState().reset();
    else if (!keepsNothing()) {
      // Declined: the field shows the address in use, as the connection does.
      setUrlDraft(connection.url);
      return;
    }
    setUrlDraft(url);
    update({ url });
  };

  const editUrl = () => {
    endpointInput.current?.focus();
    endpointInput.current?.select();
  };

  const onLoad = async (file: File | undefined) => {
    if (!file) return;
    const pick = ++picks.current;
    superseded.current?.abort();
    const read = new AbortController();
    superseded.current = read;
    setReading(file.name);
    setProgress(undefined);
    try {
      const log = await readSessionFile(file, { signal: read.signal, onProgress: (n, of) => setProgress({ read: n, of }) });
      if (pick !== picks.current) return;
      // Said in the page's language: the parser's own words are English.
      if (log.entries.length === 0)
        throw new Error(log.oneObject ? t.oneObject : log.errors[0] ? t.notASession(log.errors[0].line) : t.noEvents);
      setLoadError(undefined);
      setReplay(log);
      setLoads((n) => n + 1);
    } catch (e) {
      if (pick !== picks.current) return;
      // The name isolated (FSI ... PDI, as an alert is text): an override in it cannot reverse the reason after it.
      setLoadError(t.loadFailed(`\u2068${file.name}\u2069`, e instanceof Error ? e.message : String(e)));
    } finally {
      if (pick === picks.current) {
        setReading(undefined);
        setProgress(undefined);
      }
    }
  };

  const helpId = `${ids}-urlhelp`;
  const invalidId = `${ids}-urlinvalid`;

  return (
    <AgentLocaleProvider locale={uiLocaleFor(lang)}>
      <div className="agk-theme pg" data-theme={theme} lang={lang}>
        {/* The first Tab stop, seen only when focused: past the bar's dozen controls to the conversation on screen. */}
        <a className="pg__skip" href={replay ? '#pg-replay' : '#pg-conversation'}>
          {t.skipToChat}
        </a>
        <header className="pg__bar" ref={barRef}>
          <h1 className="pg__title">{t.title}</h1>
          <label className="pg__field">
            {t.scenario}
            <select
              className="agk-select"
              value={connection.scenarioId}
              onChange={(e) => switchTo({ scenarioId: e.target.value })}
              disabled={connection.mode === 'url' || replaying}
            >
              {Object.values(scenarios).map((s) => (
                <option key={s.id} value={s.id}>
                  {titleOf(s.id, s.title)}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="pg__field pg__modes" disabled={replaying}>
            <legend>{t.agent}</legend>
            {MODES.map((mode) => (
              <label key={mode}>
                <input
                  ref={connection.mode === mode ? checkedMode : undefined}
                  type="radio"
                  name="mode"
                  checked={connection.mode === mode}
                  onChange={() => switchTo({ mode })}
                />
                {t.modes[mode]}
              </label>
            ))}
          </fieldset>
          {connection.mode === 'url' ? (
            <form
              className="pg__field pg__endpoint"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                connectTo(urlDraft);
              }}
            >
              <label>
                {t.endpoint}
                <input
                  ref={endpointInput}
                  type="url"
                  value={urlDraft}
                  placeholder="https://host/agent"
                  aria-invalid={urlInvalid || undefined}
                  aria-describedby={urlInvalid ? `${invalidId} ${helpId}` : helpId}
                  onChange={(e) => {
                    setUrlDraft(e.target.value);
                    setUrlInvalid(false);
                  }}
                />
              </label>
              <button type="submit" className="agk-button" data-size="sm">
                {t.connect}
              </button>
            </form>
          ) : (
            <label className="pg__field">
              {t.speed}
              <select
                className="agk-select"
                disabled={replaying}
                value={connection.speed}
                onChange={(e) => update({ speed: Number(e.target.value) })}
              >
                {SPEEDS.map((s) => (
                  <option key={s} value={s}>
                    {s}×
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="pg__actions">
            <button type="button" className="agk-button" data-size="sm" disabled={replaying} onClick={newThread}>
              {t.newThread}
            </button>
            <button
              type="button"
              className="agk-button"
              data-size="sm"
              disabled={replaying}
              onClick={() => void downloadSession(store.session.entries, `aguikit-${connection.scenarioId}.jsonl`)}
            >
              {t.downloadEvents}
            </button>
            <label className="agk-button pg__file" data-size="sm">
              {t.loadEvents}
              <input
                ref={fileInput}
                type="file"
                accept=".jsonl,.ndjson,.json,application/x-ndjson"
                onChange={(e) => {
                  void onLoad(e.target.files?.[0]);
                  // Emptied, so choosing the same file again loads it again.
                  e.target.value = '';
                }}
              />
            </label>
            <button
              type="button"
              className="agk-button"
              data-size="sm"
              aria-pressed={theme === 'dark'}
              onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            >
              {t.darkTheme}
            </button>
            <label className="pg__field">
              {t.language}
              <select className="agk-select" value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
                {LANGS.map((l) => (
                  <option key={l.lang} value={l.lang} lang={l.lang}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </header>
        {connection.mode === 'url' && urlInvalid ? (
          // Below the bar, not in it: on a phone the bar is one row that scrolls sideways, and the sentence would be cut.
          <p id={invalidId} role="alert" className="pg__invalid">
            {t.url.invalid(new URL('/agents/refund', window.location.origin).href)}
          </p>
        ) : null}
        {loadError ? (
          <div className="pg__error">
            <p role="alert">{loadError}</p>
            <button type="button" className="agk-button" data-size="sm" onClick={dismissLoadError}>
              {t.dismiss}
            </button>
          </div>
        ) : null}
        {/* Always there, so that a screen reader hears it fill; empty, it takes no room (under the bar and its alerts). */}
        <p role="status" className="pg__reading">
          {reading === undefined ? '' : t.reading(`\u2068${reading}\u2069`)}
        </p>
        {/* Outside the status: its value is read when asked for, not said at each step. */}
        {reading !== undefined && progress && progress.of > 0 ? (
          <progress className="pg__progress" max={progress.of} value={progress.read} aria-label={t.reading(`\u2068${reading}\u2069`)} />
        ) : null}
        {replay ? (
          <Replay
            key={loads}
            log={replay}
            t={t}
            onClose={() => {
              // Back to live is back to live: a file still being read is dropped, not replayed once it has been read.
              picks.current++;
              superseded.current?.abort();
              setReading(undefined);
              setProgress(undefined);
              setReplay(undefined);
              // Back where the replay was opened from, not on <body>.
              requestAnimationFrame(() => fileInput.current?.focus());
            }}
          />
        ) : null}
        {/* Hidden, not unmounted, while a recording plays: back to live, the draft and what was open are as they were. */}
        <Activity mode={replay ? 'hidden' : 'visible'}>
          <AgentProvider store={store}>
            <main className="pg__main" id="pg-conversation" tabIndex={-1}>
              <div className="pg__chat" ref={revealComposerOnFocus}>
                {connection.mode === 'url' ? (
                  <UrlHelp t={t} url={connection.url} id={helpId} onPick={(url) => connectTo(url)} onEdit={editUrl} titleOf={titleOf} />
                ) : scenario ? (
                  <p className="pg__hint">
                    <strong>{t.titled(titleOf(scenario.id, scenario.title))}</strong>{' '}
                    {t.scenarios[scenario.id]?.description ?? scenario.description} {t.tryPrompt} <q>{scenario.prompt}</q>{' '}
                    <SendPrompt prompt={scenario.prompt} label={t.sendThis} />
                  </p>
                ) : null}
                <AgentChat placeholder={connection.mode === 'url' ? t.messageAgent : (scenario?.prompt ?? t.messageAgent)} />
              </div>
              <aside className="pg__side" aria-label={t.devtools}>
                <Tabs<Panel>
                  label={t.devtools}
                  tabs={[
                    { id: 'state', label: t.tabs.state },
                    { id: 'events', label: t.tabs.events },
                  ]}
                  selected={panel}
                  onSelect={setPanel}
                  panels={{ state: <StateInspectorPanel />, events: <EventTimelinePanel /> }}
                />
              </aside>
            </main>
          </AgentProvider>
        </Activity>
      </div>
    </AgentLocaleProvider>
  );
}
