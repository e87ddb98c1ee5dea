import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { AgentChat, AgentLocaleProvider, EventTimelinePanel, StateInspectorPanel } from '@aguikit/ui';
import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import type { PlaygroundMessages } from './i18n.js';
import type { LoadedSession } from './recording.js';

/** How many of a file's unreadable lines are listed with their reason. */
const SHOWN_PROBLEMS = 100;

/** A replayed log never runs an agent. */
const silent: AgentSource = {
  run() {
    return (async function* () {})();
  },
};

/** What a log entry is, in the page's language: an agent event by its AG-UI type, a client entry in words. */
function entryName(entry: LoadedSession['entries'][number] | undefined, t: PlaygroundMessages): string {
  if (!entry) return '';
  if (entry.type === 'event') {
    const type = (entry.event as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? type : '?';
  }
  return t.replay.entry[entry.type] ?? entry.type;
}

/** A recorded session replayed with a scrubber: the thread as it was after any entry of its log. */
export function Replay({ log, t, onClose }: { log: LoadedSession; t: PlaygroundMessages; onClose: () => void }) {
  const last = log.entries.length - 1;
  // Past the lines the file's reading named, it counts the rest.
  const skipped = log.refused ?? log.errors.length;
  const [at, setAt] = useState(last);
  // Read through as the file loaded: a step applies at most a checkpoint's entries.
  const { recording } = log;
  // Deferred all the same, so the scrubber moves at once and the screen follows when it rests.
  const shown = useDeferredValue(at);
  // A controller started from the session up to the picked entry, as it was then (a run streaming at that
  // point is shown running, not cut off): the chat, the state inspector and the event timeline all read it,
  // so none of them shows anything that came later. Its clock stands at the time of that entry: an interrupt is
  // expired if it was then, whatever the time is today (a file of events without times says 0: none is).
  const time = log.entries[shown]?.at ?? 0;
  const store = useMemo(
    () => createAgentStore({ source: silent, log: recording.until(shown), asRecorded: true, now: () => time }),
    [recording, shown, time],
  );
  useEffect(() => store.retain(), [store]);
  const sliderId = useId();
  const nameId = useId();
  const where = t.replay.after(at + 1, last + 1, entryName(log.entries[at], t));
  const devtoolsWords = useMemo(() => ({ devtools: { inspector: t.replay.inspector } }), [t]);

  return (
    <AgentProvider store={store}>
      {/* No landmark: the main below is a top-level one. The scrubber is a region of its own. */}
      <div className="pg__replay">
        <section className="pg__scrubber" aria-label={t.replay.region}>
          <label htmlFor={sliderId}>
            {/* The slider's name is the file alone: where it stands is its value text, which a screen reader says once. */}
            <span id={nameId}>
              {/* A file's name keeps its direction to itself: an override in it cannot reverse the rest of the label. */}
              {t.replay.replaying}{' '}
              <strong>
                <bdi>{log.name}</bdi>
              </strong>
            </span>
            {t.replay.separator}
            {where}
          </label>
          {/* Its value is an index from 0; what a screen reader says is the entry as the label counts it. */}
          <input
            id={sliderId}
            type="range"
            min={0}
            max={last}
            value={at}
            aria-labelledby={nameId}
            aria-valuetext={where}
            onChange={(e) => setAt(Number(e.target.value))}
          />
          <button type="button" className="agk-button" onClick={onClose}>
            {t.replay.back}
          </button>
          {skipped ? (
            <details className="pg__skipped">
              <summary>{t.replay.skipped(skipped)}</summary>
              {/* Why, in the page's language where it has words for the parser's code, then the parser's detail (English),
                  each isolated; the first hundred, for a file that is no session at all has one per line. */}
              <ul>
                {log.errors.slice(0, SHOWN_PROBLEMS).map(({ line, code, message }) => (
                  <li key={line}>
                    {t.replay.line(line)}
                    {t.replay.problem[code]}
                    <bdi lang="en">{message}</bdi>
                  </li>
                ))}
                {skipped > SHOWN_PROBLEMS ? <li>{t.replay.more(skipped - SHOWN_PROBLEMS)}</li> : null}
              </ul>
            </details>
          ) : null}
        </section>
        {/* The skip link's target while a recording plays (the live conversation is hidden then). */}
        <main className="pg__main" id="pg-replay" tabIndex={-1}>
          <div className="pg__chat">
            {/* A recording is read, not continued: no composer, no forms to answer its interrupts. */}
            <AgentChat readOnly />
          </div>
          <aside className="pg__side" aria-label={t.devtools}>
            <AgentLocaleProvider messages={devtoolsWords}>
              <StateInspectorPanel />
              <EventTimelinePanel />
            </AgentLocaleProvider>
          </aside>
        </main>
      </div>
    </AgentProvider>
  );
}
