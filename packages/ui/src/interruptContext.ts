'use client';

import type { OpenInterrupt, ResumeRefusal, ResumeResponse } from '@aguikit/core';
import type Form from '@rjsf/core';
import type { RefObject } from 'react';
import * as React from 'react';
import type { Expiry } from './Countdown.js';
import { clientContext } from './clientContext.js';
import type { AnswerShape, InterruptReasonKind } from './interruptForm.js';

/**
 * `immediate`: one interrupt is open, and its answer is sent as soon as it is
 * given. `collect`: several are open; each answer is kept until all of them
 * have one, and Send answers sends them in one resume.
 */
export type InterruptSendMode = 'immediate' | 'collect';

/** What `Interrupt.Group` shares with the interrupts inside it. */
export interface InterruptSession {
  mode: InterruptSendMode;
  /** The open interrupts, in arrival order. */
  interrupts: readonly OpenInterrupt[];
  /** The clock expiry is measured with. */
  now: () => number;
  /** A resume is being sent, or a request is in flight: nothing can be answered now. */
  busy: boolean;
  /**
   * What is on its way for this interrupt closes it without answering it (`cancelled` from Close without answering; a
   * question without a form's No is an answer): said as closing, not sending.
   */
  closing(interruptId: string): boolean;
  /** The answers given so far (collect mode), by interrupt id. */
  answers: ReadonlyMap<string, ResumeResponse>;
  /** Gives an answer: sent at once (immediate mode) or kept (collect mode). `summary` says it in words, for the announcement. */
  answer(response: ResumeResponse, summary: string): void;
  /** Takes an answer back so it can be changed, and focuses its form (collect mode). */
  reopen(interruptId: string): void;
  /** Forgets an answer that can no longer be sent, leaving focus where it is. */
  drop(interruptId: string): void;
  register(interruptId: string, element: HTMLElement | null): void;
  /** An interrupt's form has rendered its fields: focus that was waiting for them moves to the first one. */
  fieldsReady(interruptId: string): void;
  send(): void;
  sendButton: RefObject<HTMLButtonElement | null>;
  /** Says `text` in the region's polite live region. */
  announce(text: string): void;
}

/**
 * The `data-state` of `Interrupt.Root`. `open`: it can be answered.
 * `answered`: its answer is kept until all answers are sent together (it can
 * be changed). `expired`: it can only be closed without an answer.
 * `submitting`: an answer is on its way (or another request is in flight),
 * nothing can be clicked.
 *
 * @example
 * .agk-interrupt[data-state="expired"] { opacity: 0.8; }
 */
export type InterruptState = 'open' | 'answered' | 'expired' | 'submitting';

/** What `Interrupt.Root` shares with its parts. */
export interface InterruptRootContext {
  interrupt: OpenInterrupt;
  kind: InterruptReasonKind;
  shape: AnswerShape;
  state: InterruptState;
  expiry: Expiry;
  /** The answer kept for it (collect mode), until it is sent or taken back. */
  answer: ResumeResponse | undefined;
  /** The store refused the last resume for these reasons. */
  errors: readonly ResumeRefusal[];
  /** The form could not be built from the responseSchema: only Cancel is possible. */
  formFailed: boolean;
  /** The form is rendered (its code loads on demand): Approve, Reject and Submit wait for it. */
  formReady: boolean;
  ids: { title: string; message: string; form: string; fields: string };
  /** The answer (kept or about to be sent) in words. */
  summarize(answer: ResumeResponse): string;
  form: RefObject<Form | null>;
  /** Which button submitted an approval form: true for Approve, false for Reject. */
  intent: RefObject<boolean | undefined>;
  resolve(payload?: unknown): void;
  cancel(): void;
  decide(approved: boolean): void;
  reportFormFailure(): void;
  /** Called by the form when it has rendered (true) and when it goes (false). */
  reportFormReady(ready: boolean): void;
}

export const NO_REFUSALS: readonly ResumeRefusal[] = [];

export const SessionContext = clientContext<InterruptSession | null>(null);
export const RootContext = clientContext<InterruptRootContext | null>(null);

export function useSession(part: string): InterruptSession {
  const session = React.useContext(SessionContext);
  if (!session) throw new Error(`Interrupt.${part} must be used within <Interrupt.Group>.`);
  return session;
}

export function useInterruptRoot(part: string): InterruptRootContext {
  const root = React.useContext(RootContext);
  if (!root) throw new Error(`Interrupt.${part} must be used within <Interrupt.Root>.`);
  return root;
}
