import type { RunAgentInput } from '@aguikit/core';

/**
 * A side effect in the world (a refund issued). A server performs it once per
 * `key`, however often the same answer arrives, just before sending the event
 * that reports it.
 */
export interface SideEffect {
  kind: string;
  key: string;
  detail?: unknown;
}

/** An event of a scripted run, sent `delayMs` after the one before it. */
export interface TimedEvent {
  delayMs: number;
  event: Record<string, unknown>;
  effect?: SideEffect;
}

/**
 * A run's events, made when asked for: `length` and every index known at
 * once, `at(i)` making event `i` (negative counts from the end, as
 * `Array.prototype.at` does; undefined past either end). An array of
 * `TimedEvent`s is one.
 */
export interface EventPlan {
  readonly length: number;
  at(index: number): TimedEvent | undefined;
}

/** `count` events of a script made on demand by `make(i)`, i from 0 (`Script.lazy`). */
class Lazy {
  constructor(
    readonly count: number,
    readonly make: (i: number) => TimedEvent,
  ) {}
}

export interface TextOptions {
  role?: 'assistant' | 'system' | 'developer' | 'user';
  /** Pause before each token. */
  tokenDelayMs?: number;
  subagentRunId?: string;
  /** Stop after this many tokens and never send END (a stream cut off mid-message). */
  cutAfter?: number;
}

export interface ToolOptions {
  parentMessageId?: string;
  /** Pieces the arguments are streamed in. */
  chunks?: number;
  chunkDelayMs?: number;
  subagentRunId?: string;
  /** The call's id is a secret one (`Script.secretId`): a later run answering it cannot be guessed from the run id. */
  secret?: boolean;
}

/**
 * What a server may add to a scenario's context: a per-run random `nonce`,
 * mixed into the ids of interrupts (`Script.secretId`) so that nobody who
 * knows a run id can answer its interrupts. Without it (a scenario played in
 * the browser) ids are derived from the run id alone.
 */
export interface RunSecret {
  nonce?: string;
}

/** The nonce of a scenario context, when one was given and is a plain token (letters and digits, 16 to 64 of them). */
export function nonceOf(context: object): string | undefined {
  const nonce = (context as RunSecret).nonce;
  return typeof nonce === 'string' && /^[0-9A-Za-z]{16,64}$/u.test(nonce) ? nonce : undefined;
}

/** Splits text into tokens the way a model streams it: words with their following space. */
export function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu) ?? [];
}

/**
 * Builds the events of one scripted run. Ids derive from the run's id, so a
 * script is a pure function of its input: the same input gives the same events.
 *
 * @example
 * const s = new Script(input).start();
 * s.text('answer', 'Hello there.').finish();
 * s.events(); // TimedEvent[]
 */
export class Script {
  /** The events, and runs of events made on demand, in order; `starts[k]`, the index of the first event of `parts[k]`. */
  private readonly parts: (TimedEvent | Lazy)[] = [];
  private readonly starts: number[] = [];
  private count = 0;
  private lazyParts = false;
  private finished = false;

  /** `nonce`: the run's secret (see `RunSecret`), mixed into `secretId`s. */
  constructor(
    readonly input: RunAgentInput,
    readonly nonce?: string,
  ) {}

  /** A stable id for something in this run: `<runId>-<name>`. */
  id(name: string): string {
    return `${this.input.runId}-${name}`;
  }

  /**
   * An id that must not be guessable from the run id (an interrupt whose
   * answer makes a side effect): `<runId>.<nonce>-<name>` when the run has a
   * nonce, `<runId>-<name>` otherwise. Still a pure function of the run's
   * input and nonce.
   */
  secretId(name: string): string {
    return this.nonce ? `${this.input.runId}.${this.nonce}-${name}` : this.id(name);
  }

  emit(event: Record<string, unknown>, delayMs = 0, effect?: SideEffect): this {
    this.parts.push(effect ? { delayMs, event, effect } : { delayMs, event });
    this.starts.push(this.count++);
    return this;
  }

  /**
   * `count` events made when asked for, by `make(i)` with i from 0 (a pure
   * function: asked twice, it makes the same event): what keeps a long run
   * (thousands of tokens or deltas) from being held as objects while it is
   * streamed.
   */
  lazy(count: number, make: (i: number) => TimedEvent): this {
    if (count <= 0) return this;
    this.parts.push(new Lazy(count, make));
    this.starts.push(this.count);
    this.count += count;
    this.lazyParts = true;
    return this;
  }

  start(): this {
    return this.emit({
      type: 'RUN_STARTED',
      threadId: this.input.threadId,
      runId: this.input.runId,
      protocolVersion: '1.0',
      ...(this.input.parentRunId ? { parentRunId: this.input.parentRunId } : {}),
      // A resumed run restates its input, so a replayed log knows which interrupts it answered.
      ...(this.input.resume?.length ? { input: this.input } : {}),
    });
  }

  finish(extra: Record<string, unknown> = {}, delayMs = 0): this {
    this.finished = true;
    return this.emit({ type: 'RUN_FINISHED', threadId: this.input.threadId, runId: this.input.runId, ...extra }, delayMs);
  }

  fail(message: string, code?: string, delayMs = 0): this {
    this.finished = true;
    return this.emit({ type: 'RUN_ERROR', message, ...(code ? { code } : {}) }, delayMs);
  }

  text(name: string, text: string, options: TextOptions = {}): this {
    const messageId = this.id(name);
    const sub = options.subagentRunId ? { subagentRunId: options.subagentRunId } : {};
    this.emit({ type: 'TEXT_MESSAGE_START', messageId, role: options.role ?? 'assistant', ...sub });
    const parts = tokens(text);
    const cut = options.cutAfter ?? parts.length;
    for (const delta of parts.slice(0, cut))
      this.emit({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta, ...sub }, options.tokenDelayMs ?? 30);
    if (cut >= parts.length) this.emit({ type: 'TEXT_MESSAGE_END', messageId, ...sub });
    return this;
  }

  reasoning(name: string, text: string, tokenDelayMs = 25): this {
    const spanId = this.id(`${name}-span`);
    const messageId = this.id(name);
    this.emit({ type: 'REASONING_START', messageId: spanId });
    this.emit({ type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' });
    for (const delta of tokens(text)) this.emit({ type: 'REASONING_MESSAGE_CONTENT', messageId, delta }, tokenDelayMs);
    this.emit({ type: 'REASONING_MESSAGE_END', messageId });
    return this.emit({ type: 'REASONING_END', messageId: spanId });
  }

  /** A tool call: START, its arguments in `chunks`, END. Returns its id through `onId`. */
  tool(name: string, toolName: string, args: unknown, options: ToolOptions = {}): this {
    const toolCallId = options.secret ? this.secretId(name) : this.id(name);
    const sub = options.subagentRunId ? { subagentRunId: options.subagentRunId } : {};
    const text = JSON.stringify(args);
    const chunks = Math.max(1, options.chunks ?? 3);
    const size = Math.ceil(text.length / chunks);
    this.emit({
      type: 'TOOL_CALL_START',
      toolCallId,
      toolCallName: toolName,
      ...(options.parentMessageId ? { parentMessageId: this.id(options.parentMessageId) } : {}),
      ...sub,
    });
    for (let i = 0; i < text.length; i += size)
      this.emit({ type: 'TOOL_CALL_ARGS', toolCallId, delta: text.slice(i, i + size), ...sub }, options.chunkDelayMs ?? 40);
    return this.emit({ type: 'TOOL_CALL_END', toolCallId, ...sub });
  }

  result(callName: string, content: unknown, delayMs = 300, options: { subagentRunId?: string } = {}): this {
    return this.emit(
      {
        type: 'TOOL_CALL_RESULT',
        messageId: this.id(`${callName}-result`),
        toolCallId: this.id(callName),
        content: typeof content === 'string' ? content : JSON.stringify(content),
        ...(options.subagentRunId ? { subagentRunId: options.subagentRunId } : {}),
      },
      delayMs,
    );
  }

  /** A result for a call made in an earlier run (after a resume), with the side effect it reports. */
  resultFor(toolCallId: string, content: unknown, delayMs = 300, effect?: SideEffect): this {
    return this.emit(
      {
        type: 'TOOL_CALL_RESULT',
        messageId: this.id('result'),
        toolCallId,
        content: typeof content === 'string' ? content : JSON.stringify(content),
      },
      delayMs,
      effect,
    );
  }

  state(snapshot: unknown, delayMs = 0): this {
    return this.emit({ type: 'STATE_SNAPSHOT', snapshot }, delayMs);
  }

  delta(operations: unknown[], delayMs = 0): this {
    return this.emit({ type: 'STATE_DELTA', delta: operations }, delayMs);
  }

  step(name: string, body: (s: this) => void): this {
    this.emit({ type: 'STEP_STARTED', stepName: name });
    body(this);
    return this.emit({ type: 'STEP_FINISHED', stepName: name });
  }

  /** Every event, made now. */
  events(): TimedEvent[] {
    if (!this.lazyParts) return this.parts as TimedEvent[];
    return Array.from({ length: this.count }, (_, i) => this.at(i) as TimedEvent);
  }

  /** The events as a plan, each made when asked for (see `lazy`). */
  plan(): EventPlan {
    if (!this.lazyParts) return this.parts as TimedEvent[];
    return { length: this.count, at: (index) => this.at(index) };
  }

  private at(index: number): TimedEvent | undefined {
    const i = Math.trunc(index) < 0 ? this.count + Math.trunc(index) : Math.trunc(index);
    if (!(i >= 0 && i < this.count)) return undefined;
    // The last part starting at or before i (binary search: parts are few, lazy runs long).
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] as number) <= i) low = mid;
      else high = mid - 1;
    }
    const part = this.parts[low] as TimedEvent | Lazy;
    return part instanceof Lazy ? part.make(i - (this.starts[low] as number)) : part;
  }

  get isFinished(): boolean {
    return this.finished;
  }
}

/** A short, stable tag for an id (FNV-1a, base 36), for ids derived in later runs. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36).toUpperCase().slice(0, 5);
}
