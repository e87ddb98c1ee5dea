/**
 * What the page of case 5 (bench/browser/main.tsx) records in Chromium and
 * hands to the case (bench/src/cases/rendering.ts) through `window`. The page
 * records raw timestamps only; the case turns them into figures, so what a
 * figure means is written in one place, next to its bar.
 */

/**
 * `chat`: `<AgentChat />` itself. `parts`: AgentChat's parts composed the
 * same way, except that each message is drawn through `MessageList`'s
 * `renderMessage` inside a React Profiler of its own (AgentChat exposes no
 * such hook), to count the renders of every message.
 */
export type Variant = 'chat' | 'parts';

export interface PageParams {
  readonly variant: Variant;
  /** Messages restated by the MESSAGES_SNAPSHOT before the streamed one. */
  readonly history: number;
  /** TEXT_MESSAGE_CONTENT deltas streamed into the last message. */
  readonly tokens: number;
  /** Deltas per second. */
  readonly rate: number;
}

/** Every time is `performance.now()` in the page, in ms. */
export interface PageRecord {
  readonly params: PageParams;
  /** When each animation frame's callbacks began (the page's own requestAnimationFrame loop runs first in every frame). */
  readonly frames: readonly number[];
  /** Each React commit of the whole tree (a Profiler at the root): when it happened and its render time (`actualDuration`). */
  readonly commits: readonly { readonly at: number; readonly renderMs: number }[];
  /**
   * `parts` only: each commit in which a message's own subtree rendered, by
   * message id (`mount`, `update` or `nested-update`), with the index of that
   * commit in `commits`.
   */
  readonly messageRenders: readonly { readonly id: string; readonly phase: string; readonly at: number; readonly commit: number }[];
  /** `parts` only: the index in `commits` of each commit in which something in MessageList's subtree rendered. */
  readonly listCommits: readonly number[];
  /** `longtask` entries (tasks over 50 ms) of the whole page life. */
  readonly longTasks: readonly { readonly start: number; readonly duration: number }[];
  readonly marks: {
    /** The MESSAGES_SNAPSHOT was handed to the store. */
    readonly snapshot: number;
    /** TEXT_MESSAGE_START of the streamed message is handed over: the stream begins. */
    readonly start: number;
    /** The last delta has been taken by the store. */
    readonly last: number;
    /** The first commit that shows the whole text, or NaN if none did. */
    readonly done: number;
    /** TEXT_MESSAGE_END is handed over: the stream's window ends (a short pause after `last`). */
    readonly end: number;
  };
  /** The id of the streamed message. */
  readonly streamedId: string;
  /** Sanity checks: the run ended cleanly and the page shows the whole text. */
  readonly check: {
    readonly messages: number;
    readonly diagnostics: number;
    readonly runStatus: string;
    readonly storedChars: number;
    readonly expectedChars: number;
    /** The end of the streamed text is in the DOM of the last message shown. */
    readonly shown: boolean;
  };
}

export interface PageOutcome {
  readonly record?: PageRecord;
  readonly error?: string;
}

declare global {
  interface Window {
    /** Set by the page once the run is over (or failed). */
    __aguikitRendering?: PageOutcome;
  }
}
