/**
 * `@aguikit/core/schema`: what validates interrupt answers against their
 * `responseSchema` with ajv, imported statically. The main entry reaches it only
 * through `loadPayloadValidator`, so an application that never needs it never loads ajv.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { ThreadState } from './model.js';
import { type BuildResumeOptions, type BuildResumeResult, buildResumeWith, type PayloadValidator, type ResumeResponse } from './resume.js';

// Created on first use: a module without top-level work is one a bundler can leave out when it is not used.
let ajv: Ajv | undefined;
let compiled: WeakMap<object, ValidateFunction | Error> | undefined;

function validatorFor(schema: object): ValidateFunction | Error {
  compiled ??= new WeakMap();
  let v = compiled.get(schema);
  if (!v) {
    try {
      ajv ??= new Ajv({ allErrors: true, strict: false, logger: false });
      v = ajv.compile(schema);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    compiled.set(schema, v);
  }
  return v;
}

/**
 * Validates an interrupt's answer against its `responseSchema` (ajv); returns
 * the problems as readable strings, empty when the payload is acceptable.
 */
export const validateResponsePayload: PayloadValidator = (interrupt, payload) => {
  if (!interrupt.responseSchema) return [];
  const v = validatorFor(interrupt.responseSchema);
  if (v instanceof Error) return [`the interrupt's responseSchema cannot be compiled: ${v.message}`];
  if (v(payload)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '(payload)'} ${e.message ?? 'is invalid'}`);
};

/**
 * Builds the `RunAgentInput` of a resume, answers validated with ajv (see
 * `buildResumeWith`, which takes the validator, for an application that loads
 * it on demand with `loadPayloadValidator`).
 *
 * @example
 * const r = buildResume(state, [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }], { now: Date.now() });
 * if (r.ok) await send(r.input); else show(r.errors);
 */
export function buildResume(state: ThreadState, responses: readonly ResumeResponse[], options: BuildResumeOptions): BuildResumeResult {
  return buildResumeWith(state, responses, { ...options, validate: validateResponsePayload });
}
