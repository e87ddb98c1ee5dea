import type { ThreadState } from '../model.js';
import type { RunAgentInput } from '../protocol.js';
import type { Decision, ResumeResponse } from '../resume.js';
import { loadResumeBuilder } from '../resumeLoader.js';
import { refusals } from './refusals.js';
import { toolsInput } from './runInput.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { ActionResult, Refusal, RunControllerOptions } from './types.js';

export interface ResumeDeps {
  getOptions(): RunControllerOptions;
  thread(): ThreadState;
  clock(): number;
  inFlight(): boolean;
  destroyed(): boolean;
  refuse(refusal: Refusal): ActionResult;
  gone(): Refusal;
  /** Records the answers (the interrupts close at once) and the decisions. */
  record(entry: Extract<SessionEntryBody, { type: 'resume' }>, decisions: readonly Decision[]): void;
  stream(input: RunAgentInput): Promise<ActionResult>;
  /** Shared-state edits still applying (the resume waits for them, so it sends them). */
  settled(): Promise<void> | undefined;
}

/** The validator of answers none of which has a schema to meet. */
const noSchema = (): string[] => [];

/**
 * The resume action: validates the answers (ajv only when one has a schema),
 * records them so nothing can answer the same interrupts twice, and streams
 * the resume. A second call while one is in flight joins it.
 */
export function resumeAction(deps: ResumeDeps) {
  let inFlight: Promise<ActionResult> | undefined;
  return {
    /** Forgets the resume in flight (stop, reset, destroy tore its stream down). */
    forget() {
      inFlight = undefined;
    },
    resume(responses: ResumeResponse[]): Promise<ActionResult> {
      if (deps.destroyed()) return Promise.resolve(deps.refuse(deps.gone()));
      if (inFlight) return inFlight;
      if (deps.inFlight()) {
        return Promise.resolve(
          deps.refuse({ ...refusals.runInProgress, message: 'A run is already in progress: its interrupts cannot be answered yet.' }),
        );
      }
      // The decision's time is the call's, however long the validator takes to load.
      const now = deps.clock();
      const schemaFor = new Map(deps.thread().interrupts.map((it) => [it.id, it.responseSchema]));
      const needsSchema = responses.some((r) => r.status === 'resolved' && schemaFor.get(r.interruptId) !== undefined);
      // Claimed at once, before any await: a second call (double click, StrictMode) joins this one.
      const promise = (async (): Promise<ActionResult> => {
        // Loaded when the interrupt opened (see the preloader); ajv only when an answer has a schema to meet.
        const { buildResumeWith, loadPayloadValidator } = await loadResumeBuilder();
        const validate = needsSchema ? await loadPayloadValidator() : noSchema;
        await deps.settled();
        if (deps.destroyed()) return deps.refuse(deps.gone());
        const options = deps.getOptions();
        const built = buildResumeWith(deps.thread(), responses, {
          now,
          validate,
          tools: toolsInput(options.tools),
          context: options.context ?? [],
          ...(options.forwardedProps !== undefined ? { forwardedProps: options.forwardedProps } : {}),
        });
        if (!built.ok) {
          return deps.refuse({ code: 'RESUME_REFUSED', message: built.errors.map((e) => e.message).join(' '), errors: built.errors });
        }
        for (const decision of built.decisions) options.onDecision?.(decision);
        deps.record({ type: 'resume', runId: built.input.runId, resume: built.input.resume ?? [] }, built.decisions);
        return deps.stream(built.input);
      })().finally(() => {
        if (inFlight === promise) inFlight = undefined;
      });
      inFlight = promise;
      return promise;
    },
  };
}
