'use client';

import { jsonKeys } from '@aguikit/core/bindings';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { type Highlights, highlightsOf, type Mark, pointerSegment, unescapeSegment } from './jsonHighlights.js';
import { ShowAll } from './LongText.js';
import { type LocaleValue, useLocale } from './locale.js';
import { textHead } from './textCut.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';

/**
 * The kind of a JSON value, as a tree node's `data-type`.
 *
 * @example
 * document.querySelectorAll('.agk-json__node[data-type="array"]');
 */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'other';

/**
 * What `JsonTree` shows and how much of it opens by itself.
 *
 * @example
 * const props: JsonTreeProps = { label: 'Event', value: event, expandDepth: 1 };
 */
export interface JsonTreeProps extends Omit<React.HTMLAttributes<HTMLUListElement>, 'children'> {
  /** Any JSON value; agent-controlled keys and strings are rendered as text only. */
  value: unknown;
  /** The tree's accessible name. */
  label: string;
  /** JSON Patch operations to mark on the nodes they touched (`value` is the document after them). */
  highlight?: readonly unknown[] | undefined;
  /** How many levels open by themselves (the root is level 0). Default 2. */
  expandDepth?: number;
  /** Children shown per container before "Show more". Default 100. */
  pageSize?: number;
}

/** Past this many children a container no longer opens by itself: a wide level would render all its grandchildren. */
const AUTO_OPEN_MAX = 20;
/** How many characters of a string value are shown before *Show all*. */
const LONG_VALUE = 1_000;
/**
 * How deep a change's way is opened by itself: half of what a document may
 * nest (MAX_JSON_DEPTH in core), as a tree of 512 open levels overflows the
 * call stack of a small worker (jsdom's). Deeper, a person opens the rest.
 */
const OPEN_TO_DEPTH = 256;

/**
 * The highlights, held outside React's context: a node reads its own marks
 * through `useHighlight`, so a new delta re-renders the nodes whose marks
 * changed, not every node in view.
 */
interface HighlightStore {
  get(): Highlights;
  /** Takes the new highlights as the tree renders (what renders next reads them); `notify` tells the nodes that did not. */
  set(next: Highlights): void;
  notify(): void;
  subscribe(listener: () => void): () => void;
}

function highlightStore(initial: Highlights): HighlightStore {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set: (next) => {
      current = next;
    },
    notify: () => {
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What a node reads of the highlights (`read` must give back the same value while nothing it reads changed). */
function useHighlight<T>(read: (highlights: Highlights) => T): T {
  const { highlights } = useSettings();
  const snapshot = () => read(highlights.get());
  return React.useSyncExternalStore(highlights.subscribe, snapshot, snapshot);
}

interface TreeSettings {
  highlights: HighlightStore;
  expandDepth: number;
  pageSize: number;
  locale: LocaleValue;
}

const TreeContext = clientContext<TreeSettings | null>(null);

function useSettings(): TreeSettings {
  const settings = React.useContext(TreeContext);
  if (!settings) throw new Error('JSON tree nodes must be used within <JsonTree>.');
  return settings;
}

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'other';
  }
}

type Entry = readonly [key: string, value: unknown];

/**
 * The members of an object or array, read a page at a time: a large object of
 * the shared state gives the key list it keeps per version (`jsonKeys`), so a
 * delta into a 100,000-key document reads the page the tree shows, not every
 * member through its Proxy. Own keys only: a key named `__proto__` (JSON.parse
 * makes it an own property) is data like any other.
 */
interface Members {
  readonly count: number;
  keyAt(position: number): string;
  entry(key: string): Entry;
}

const NO_MEMBERS: Members = { count: 0, keyAt: () => '', entry: (key) => [key, undefined] };

function membersOf(value: unknown): Members {
  if (typeof value !== 'object' || value === null) return NO_MEMBERS;
  const record = value as Record<string, unknown>;
  const entry = (key: string): Entry => [key, record[key]];
  if (Array.isArray(value)) return { count: value.length, keyAt: String, entry };
  const keys = jsonKeys(value);
  return { count: keys.length, keyAt: (position) => keys[position] as string, entry };
}

/** The number of members of an object or array. */
const sizeOf = (value: object): number => (Array.isArray(value) ? value.length : jsonKeys(value).length);

function size({ messages, format }: LocaleValue, kind: JsonKind, n: number): string {
  const strings = messages.devtools.json;
  return kind === 'array' ? strings.items(n, format.number(n)) : strings.keys(n, format.number(n));
}

function scalar(value: unknown, kind: JsonKind): string {
  if (kind === 'string') return JSON.stringify(value);
  return kind === 'other' ? `${typeof value}` : String(value);
}

/** The keys of the direct children of `pointer` that a change touched or passes through. */
function touchedChildren(highlights: Highlights, pointer: string): Set<string> {
  const out = new Set<string>();
  const prefix = `${pointer}/`;
  for (const p of [...highlights.at.keys(), ...highlights.inside]) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    const slash = rest.indexOf('/');
    out.add(unescapeSegment(slash < 0 ? rest : rest.slice(0, slash)));
  }
  return out;
}

function Marks({ marks }: { marks: readonly Mark[] }) {
  const strings = useSettings().locale.messages.devtools.json;
  return (
    <span className="agk-json__marks">
      {marks.map((mark) => (
        <span key={mark.at} className="agk-json__op" data-op={mark.op}>
          {mark.note === undefined
            ? mark.label
            : `${mark.label} ${mark.note.kind === 'to' ? strings.movedTo(mark.note.path) : strings.from(mark.note.path)}`}
        </span>
      ))}
    </span>
  );
}

function Key({ name }: { name: string | undefined }) {
  if (name === undefined) return null;
  return (
    <>
      <span className="agk-json__key" data-empty={name === '' ? 'true' : 'false'}>
        {name === '' ? '""' : name}
      </span>
      <span className="agk-json__colon">:</span>{' '}
    </>
  );
}

/** A string of more than LONG_VALUE characters: its head, and *Show all* for the rest (a 1 MB value took 0.7 s to lay out). */
function LongValue({ text }: { text: string }) {
  const { messages, format } = useSettings().locale;
  const [whole, setWhole] = React.useState(false);
  const shown = React.useRef<HTMLSpanElement>(null);
  return (
    <>
      <span ref={shown} className="agk-json__value" data-type="string" tabIndex={whole ? -1 : undefined}>
        {whole ? JSON.stringify(text) : `${JSON.stringify(textHead(text, LONG_VALUE)).slice(0, -1)}…"`}
      </span>{' '}
      {whole ? null : (
        <ShowAll label={messages.devtools.json.showAll(format.number(text.length))} show={() => setWhole(true)} focus={shown} />
      )}
    </>
  );
}

interface NodeProps {
  name: string | undefined;
  value: unknown;
  pointer: string;
  depth: number;
  autoOpen: boolean;
}

const Node = React.memo(function Node({ name, value, pointer, depth, autoOpen }: NodeProps) {
  const { locale } = useSettings();
  const [choice, setChoice] = React.useState<boolean>();
  const kind = kindOf(value);
  const marks = useHighlight((h) => h.at.get(pointer));
  const inside = useHighlight((h) => h.inside.has(pointer));
  const container = kind === 'object' || kind === 'array';
  // Opened by a change inside it, a container stays open when the next change lands elsewhere: what the reader looks
  // at, and the focus on it, stay. The way is opened only OPEN_TO_DEPTH deep.
  const [openedByChange, setOpenedByChange] = React.useState(false);
  const byChange = (inside || openedByChange) && depth < OPEN_TO_DEPTH;
  if (inside && !openedByChange) setOpenedByChange(true);
  const open = container && (choice ?? (autoOpen || byChange));
  const changed = marks ? 'self' : inside ? 'inside' : 'none';
  return (
    <li
      className="agk-json__node"
      data-type={kind}
      data-changed={changed}
      data-op={marks?.at(-1)?.op ?? 'none'}
      data-state={container ? (open ? 'expanded' : 'collapsed') : 'leaf'}
    >
      {container ? (
        <button type="button" className="agk-json__toggle" aria-expanded={open} onClick={() => setChoice(!open)}>
          <span className="agk-json__chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <Key name={name} />
          <span className="agk-json__size">{size(locale, kind, sizeOf(value as object))}</span>
        </button>
      ) : (
        <span className="agk-json__leaf">
          <Key name={name} />
          {kind === 'string' && (value as string).length > LONG_VALUE ? (
            <LongValue text={value as string} />
          ) : (
            <span className="agk-json__value" data-type={kind}>
              {scalar(value, kind)}
            </span>
          )}
        </span>
      )}
      {marks ? <Marks marks={marks} /> : null}
      {open ? <Children value={value} pointer={pointer} depth={depth + 1} /> : null}
    </li>
  );
});

/** Focus on the first item a "Show more" revealed: its toggle, or the item itself (a leaf). */
function focusItem(list: HTMLUListElement | null, position: number) {
  const item = list?.children[position];
  if (!(item instanceof HTMLElement)) return;
  const toggle = item.querySelector<HTMLElement>(':scope > .agk-json__toggle');
  if (toggle) return toggle.focus();
  item.tabIndex = -1;
  item.focus();
}

function Children({ value, pointer, depth }: { value: unknown; pointer: string; depth: number }) {
  const { pageSize, expandDepth, locale } = useSettings();
  const { messages, format } = locale;
  const members = React.useMemo(() => membersOf(value), [value]);
  const [shown, setShown] = React.useState(pageSize);
  const list = React.useRef<HTMLUListElement>(null);
  // Where focus goes once the next page has rendered: the button it was on may be gone (the last page).
  const [focusAt, setFocusAt] = React.useState<number>();
  useBrowserLayoutEffect(() => {
    if (focusAt === undefined) return;
    focusItem(list.current, focusAt);
    setFocusAt(undefined);
  }, [focusAt]);
  const hidden = Math.max(0, members.count - shown);
  const autoOpen = depth < expandDepth && members.count <= AUTO_OPEN_MAX;
  const visible = Array.from({ length: Math.min(shown, members.count) }, (_, i) => members.entry(members.keyAt(i)));
  // A change beyond the shown page is still shown, after it: a highlight must never hide behind "Show more". (Read as
  // one string, which stays the same value while the keys do.)
  const touchedKeys = useHighlight((h) => (hidden ? JSON.stringify([...touchedChildren(h, pointer)]) : '[]'));
  const touched = React.useMemo(() => new Set(JSON.parse(touchedKeys) as string[]), [touchedKeys]);
  // Looked for only while some are still to find: a change on the page, or of a key gone, does not walk the rest.
  const onPage = new Set(visible.map(([key]) => key));
  let wanted = 0;
  for (const key of touched) if (!onPage.has(key) && Object.hasOwn(value as object, key)) wanted++;
  const beyond: Entry[] = [];
  for (let i = shown; beyond.length < wanted && i < members.count; i++) {
    const key = members.keyAt(i);
    if (touched.has(key)) beyond.push(members.entry(key));
  }
  const removed = useHighlight((h) => h.removed.get(pointer));
  const node = ([key, child]: Entry) => (
    <Node key={key} name={key} value={child} pointer={`${pointer}/${pointerSegment(key)}`} depth={depth} autoOpen={autoOpen} />
  );
  if (members.count === 0 && !removed) return null;
  const more = () => {
    setShown(shown + pageSize);
    setFocusAt(shown);
  };
  return (
    <ul ref={list} className="agk-json__children">
      {visible.map(node)}
      {beyond.map(node)}
      {removed?.map((r) => (
        <li key={r.mark.at} className="agk-json__node" data-type="other" data-changed="self" data-op={r.mark.op} data-state="removed">
          <span className="agk-json__leaf">
            <Key name={r.key} />
            <span className="agk-json__value" data-type="other">
              {messages.devtools.json.gone}
            </span>
          </span>
          <Marks marks={[r.mark]} />
        </li>
      ))}
      {hidden ? (
        <li className="agk-json__more">
          <button type="button" className="agk-button" onClick={more}>
            {messages.devtools.json.showMore(format.number(Math.min(pageSize, hidden)), format.number(hidden))}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * A JSON value as a collapsible tree: objects and arrays open and close
 * (their children are rendered only while open, and at most `pageSize` at a
 * time, so a document with 100,000 keys renders a page, not the document),
 * scalars are typed (`data-type`) and colored through the theme variables.
 * Keys and strings are text, never markup. With `highlight`, every node an
 * operation touched carries `data-op` and the operation's name, removed keys
 * stay visible as "(gone)", and the way to each change opens by itself.
 * After "Show more", focus moves to the first item it revealed. Forwards
 * its ref to the root `<ul>` and passes `className`, `style` and DOM props.
 *
 * @example
 * const { document, lastDelta } = useSharedState();
 * <JsonTree label="Shared state" value={document} highlight={lastDelta} />
 */
export const JsonTree = React.forwardRef<HTMLUListElement, JsonTreeProps>(function JsonTree(
  { value, label, highlight, expandDepth = 2, pageSize = 100, className, ...rest },
  ref,
) {
  const locale = useLocale();
  const highlights = React.useMemo(() => highlightsOf(highlight, value), [highlight, value]);
  const [store] = React.useState(() => highlightStore(highlights));
  // The nodes rendered with this tree read the new highlights; those that bail out (memo) are told after the commit.
  store.set(highlights);
  useBrowserLayoutEffect(() => store.notify(), [highlights, store]);
  const settings = React.useMemo(() => ({ highlights: store, expandDepth, pageSize, locale }), [store, expandDepth, pageSize, locale]);
  return (
    <TreeContext.Provider value={settings}>
      <ul {...rest} ref={ref} className={className ? `agk-json agk-root ${className}` : 'agk-json agk-root'} aria-label={label}>
        <Node name={undefined} value={value} pointer="" depth={0} autoOpen />
      </ul>
    </TreeContext.Provider>
  );
});
