import type { ThreadState } from '../model.js';
import type { RunAgentInput } from '../protocol.js';
import { MAX_JSON_DEPTH, nestsWithin } from '../reducer/ownJson.js';
import type { Decision, PayloadValidator, ResumeRefusal, ResumeResponse } from '../resume.js';
import { loadResumeBuilder } from '../resumeLoader.js';
import { thrownText } from '../thrownText.js';
import { answersInvalid, refusals, unavailable } from './refusals.js';
import { tellApp } from './report.js';
import { toolsInput } from './runInput.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { ActionResult, Refusal, RunControllerOptions } from './types.js';

export interface ResumeDeps {
  getOptions(): RunControllerOptions;
  thread(): ThreadState;
  clock(): number;
  inFlight(): boolean;
  /** Claims the controller for the resume being prepared (published at once) and says the epoch it was claimed in. */
  claim(): number;
  /** Whether nothing (stop, reset, destroy) ended the claim made in `epoch`. */
  still(epoch: number): boolean;
  /** Ends a claim made in `epoch` that sent nothing (a refusal), unless something else ended it first. */
  release(epoch: number): void;
  destroyed(): boolean;
  refuse(refusal: Refusal): ActionResult;
  gone(): Refusal;
  /** Records the answers (the interrupts close at once) and the decisions. */
  record(entry: Extract<SessionEntryBody, { type: 'resume' }>, decisions: readonly Decision[]): void;
  stream(input: RunAgentInput): Promise<ActionResult>;
  /** Shared-state edits still applying (the resume waits for them, so it sends them). */
  settled(): Promise<void> | undefined;
}

/** A resume being prepared (see `resumeAction`). */
interface Preparing {
  promise: Promise<ActionResult>;
  answers: readonly ResumeResponse[];
  decided: Promise<boolean>;
}

/** The validator of answers none of which has a schema to meet. */
const noSchema: PayloadValidator = () => [];

/** What a plain-JavaScript app gave where answers go, in words. */
const kindOf = (value: unknown): string =>
  value === undefined
    ? 'nothing'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;

/**
 * The resume action: validates the answers (ajv only when one has a schema),
 * records them so nothing can answer the same interrupts twice, and streams
 * the resume. It claims the controller at once (`inFlight: 'resume'`), so a
 * stop or reset while it prepares sends nothing. A second call while it
 * prepares joins it (and, when its answers are refused, goes on with its own:
 * a cancel right after an answer the schema refuses is not lost); one with
 * other answers (an approval, then a reject) is refused once the first one's
 * are recorded, never answered as if sent. Once its answers are recorded, a
 * call is refused until the resumed run is over.
 */
export function resumeAction(deps: ResumeDeps) {
  /**
   * The resume being prepared: a second call joins it until its answers are
   * recorded. `answers` is what it answers (as JSON carries them); `decided` says, once it
   * is known, whether its answers were recorded (to be sent).
   */
  let preparing: Preparing | undefined;
  const action = {
    /** Forgets the resume in flight (stop, reset, destroy tore its stream down). */
    forget() {
      preparing = undefined;
    },
    resume(responses: ResumeResponse[]): Promise<ActionResult> {
      if (deps.destroyed()) return Promise.resolve(deps.refuse(deps.gone()));
      if (preparing) {
        // Joins the resume being prepared; one whose answers were refused leaves the interrupts open: this call's go then.
        const first = preparing;
        const join = () =>
          first.promise.then((joined) => (joined.ok || joined.code !== 'RESUME_REFUSED' ? joined : action.resume(responses)));
        // Other answers (an approval, then a reject or a cancel) are refused once the first ones are recorded: never taken as sent.
        if (sameAnswers(responses, first.answers)) return join();
        return first.decided.then((recorded) => (recorded ? deps.refuse(answeredBefore(responses)) : join()));
      }
      if (deps.inFlight()) {
        return Promise.resolve(
          deps.refuse({ ...refusals.runInProgress, message: 'A run is already in progress: its interrupts cannot be answered yet.' }),
        );
      }
      // A plain-JavaScript app's list that is none, or answers that are no objects, are refused as answers the builder refuses are.
      if (!Array.isArray(responses)) return Promise.resolve(deps.refuse(answersInvalid(`it was given ${kindOf(responses)}`)));
      const odd = responses.findIndex((r) => typeof r !== 'object' || r === null || Array.isArray(r));
      if (odd >= 0) return Promise.resolve(deps.refuse(answersInvalid(`answer ${odd + 1} is ${kindOf(responses[odd])}`)));
      const unnamed = responses.findIndex((r) => typeof r.interruptId !== 'string');
      if (unnamed >= 0)
        return Promise.resolve(deps.refuse(answersInvalid(`answer ${unnamed + 1} names no interrupt (its interruptId is no string)`)));
      // The answers as the JSON the agent gets: what is checked, recorded and sent is one value, the app's objects left behind.
      const json = asJsonAnswers(responses);
      if (!Array.isArray(json)) return Promise.resolve(deps.refuse(json));
      responses = json;
      // The decision's time is the call's, however long the validator takes to load.
      const now = deps.clock();
      const schemaFor = new Map(deps.thread().interrupts.map((it) => [it.id, it.responseSchema]));
      const needsSchema = responses.some((r) => r.status === 'resolved' && schemaFor.get(r.interruptId) !== undefined);
      // Claimed at once, before any await: a second call (double click, StrictMode) joins this one, and a stop ends it.
      const epoch = deps.claim();
      const ended = (): ActionResult => ({ ok: true, status: deps.thread().run.status });
      let decide!: (recorded: boolean) => void;
      const claim = { answers: responses as readonly ResumeResponse[], decided: new Promise<boolean>((r) => (decide = r)) } as Preparing;
      claim.promise = (async (): Promise<ActionResult> => {
        let buildResumeWith: Awaited<ReturnType<typeof loadResumeBuilder>>['buildResumeWith'];
        let validate: PayloadValidator;
        try {
          // Loaded when the interrupt opened (see the preloader); ajv only when an answer has a schema to meet.
          const builder = await loadResumeBuilder();
          buildResumeWith = builder.buildResumeWith;
          validate = needsSchema ? await builder.loadPayloadValidator() : noSchema;
        } catch (error) {
          // Nothing was recorded or sent.
          deps.release(epoch);
          return deps.refuse(unavailable(error));
        }
        await deps.settled();
        if (deps.destroyed()) return deps.refuse(deps.gone());
        if (!deps.still(epoch)) return ended();
        const options = deps.getOptions();
        let built: ReturnType<typeof buildResumeWith>;
        try {
          built = buildResumeWith(deps.thread(), responses, {
            now,
            validate,
            tools: toolsInput(options.tools),
            context: options.context ?? [],
            ...(options.forwardedProps !== undefined ? { forwardedProps: options.forwardedProps } : {}),
          });
        } catch (error) {
          // Nothing was recorded or sent, and the controller is free for the next answer.
          deps.release(epoch);
          throw error;
        }
        if (!built.ok) {
          deps.release(epoch);
          return deps.refuse({ code: 'RESUME_REFUSED', message: built.errors.map((e) => e.message).join(' '), errors: built.errors });
        }
        // The app, told, may stop, reset or destroy the thread: as while the resume prepared, nothing goes (nor is told).
        const going = () => !deps.destroyed() && deps.still(epoch);
        for (const decision of built.decisions) if (options.onDecision && going()) tellApp(options.onDecision, decision);
        if (deps.destroyed()) return deps.refuse(deps.gone());
        if (!deps.still(epoch)) return ended();
        deps.record({ type: 'resume', runId: built.input.runId, resume: built.input.resume ?? [] }, built.decisions);
        // Recorded: these interrupts are closed, and what answers the next ones is a new resume.
        if (preparing === claim) preparing = undefined;
        decide(true);
        // With the document as it is: an edit the app made when told, logged before the answers, goes with them.
        return deps.stream({ ...built.input, state: deps.thread().sharedState.document });
      })();
      preparing = claim;
      claim.promise.finally(() => {
        if (preparing === claim) preparing = undefined;
        decide(false);
      });
      return claim.promise;
    },
  };
  return action;
}

/**
 * Whether a second click's answers are the first's: the same JSON, whatever
 * the order of their keys or of the interrupts they answer. Only answers
 * that differ as given pay for the comparison in order (a large payload's
 * double click costs one stringify of each).
 */
function sameAnswers(given: unknown, first: readonly ResumeResponse[]): boolean {
  const plain = jsonOf(given);
  return plain !== undefined && (plain === jsonOf(first) || jsonOf(given, true) === jsonOf(first, true));
}

const keysSorted = (_key: string, value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, (value as Record<string, unknown>)[k]]),
      )
    : value;

/** Answers as JSON; `inOrder`, with keys and answers sorted (one answer a line); undefined for what is no JSON. */
function jsonOf(responses: unknown, inOrder = false): string | undefined {
  try {
    if (!inOrder || !Array.isArray(responses)) return JSON.stringify(responses);
    return responses
      .map((r) => JSON.stringify(r, keysSorted))
      .sort()
      .join('\n');
  } catch {
    return undefined;
  }
}

/** Answers given while other answers to the same interrupts were being sent: they were not sent. */
function answeredBefore(responses: readonly ResumeResponse[]): Refusal {
  const ids = Array.isArray(responses) ? responses.map((r) => String(r?.interruptId)) : [];
  return {
    code: 'RESUME_REFUSED',
    message: `Other answers to these interrupts were given a moment before and are being sent, so these were not sent (${ids.map((id) => `'${id}'`).join(', ')}).`,
    errors: ids.map((interruptId) => ({
      interruptId,
      code: 'UNKNOWN_INTERRUPT',
      message: `Interrupt '${interruptId}' was answered a moment before with another answer, which is the one sent.`,
    })),
  };
}

/**
 * Each answer's payload and metadata as JSON carries them (a Date as its ISO
 * text, no `undefined` members), copies the app cannot change afterwards; a
 * refusal naming each answer that is no JSON (a cycle, a BigInt) or whose
 * metadata nests past the limit (a payload's depth is the builder's check).
 */
function asJsonAnswers(responses: readonly ResumeResponse[]): ResumeResponse[] | Refusal {
  const errors: ResumeRefusal[] = [];
  const answers = responses.map((r) => {
    const { payload, metadata, ...rest } = r;
    const answer: ResumeResponse = { ...rest };
    try {
      const p = JSON.stringify(payload);
      const m = JSON.stringify(metadata);
      if (p !== undefined) answer.payload = JSON.parse(p);
      if (m !== undefined) answer.metadata = JSON.parse(m) as Record<string, unknown>;
      if (!nestsWithin(answer.metadata, MAX_JSON_DEPTH)) throw new TypeError(`its metadata nests deeper than ${MAX_JSON_DEPTH} levels`);
    } catch (error) {
      const why = thrownText(error);
      errors.push({
        interruptId: r.interruptId,
        code: 'PAYLOAD_INVALID',
        message: `Interrupt '${r.interruptId}': the answer is no JSON (${why}).`,
      });
    }
    return answer;
  });
  if (!errors.length) return answers;
  return { code: 'RESUME_REFUSED', message: `${errors.map((e) => e.message).join(' ')} Nothing was sent.`, errors };
}
