/**
 * `@aguikit/core/schema`: what validates interrupt answers against their
 * `responseSchema` with ajv, imported statically. The main entry reaches it only
 * through `loadPayloadValidator`, so an application that never needs it never loads ajv.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { enumCopy } from './enumCopy.js';
import type { ThreadState } from './model.js';
import { type BuildResumeOptions, type BuildResumeResult, buildResumeWith, type PayloadValidator, type ResumeResponse } from './resume.js';
import { SCHEMA_SIZE_LIMIT, schemaSize } from './schemaSize.js';
import { thrownText } from './thrownText.js';

export { SCHEMA_SIZE_LIMIT, schemaSize };

// Created on first use: a module without top-level work is one a bundler can leave out when it is not used.
let ajvs: Map<Draft, Ajv> | undefined;
let compiled: WeakMap<object, ValidateFunction | Error> | undefined;

type Draft = '07' | '2019-09' | '2020-12';

/**
 * The JSON Schema draft a schema declares in `$schema` (zod 4, for one, writes
 * 2020-12 by default), or draft-07 when it declares none or another. Each
 * draft has its ajv; every one of them reads inherited members as absent
 * (`ownProperties`): an answer without `toString` lacks it.
 */
function schemaDraft(schema: object): Draft {
  const uri = (schema as { $schema?: unknown }).$schema;
  if (typeof uri !== 'string') return '07';
  return uri.includes('2020-12') ? '2020-12' : uri.includes('2019-09') ? '2019-09' : '07';
}

/**
 * How ajv matches `pattern` and `patternProperties`: RE2, in time linear in
 * the answer, where a backtracking engine takes minutes on `^(a+)+$` and
 * forty letters (an agent's schema would hold the page). A pattern RE2 cannot
 * run (a lookaround, a backreference) fails to compile: the schema cannot be
 * checked, and the interrupt can only be cancelled.
 */
const linearRegExp = Object.assign(
  (pattern: string) => {
    // Written as JSON Schema writes it (ECMA-262: \uXXXX, \cJ, [^]), spelt as RE2 reads it.
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv keeps one matcher per `toString()`, as a RegExp's gives its source.
    return { test: (text: string) => re.test(text), toString: () => `/${pattern}/` };
  },
  { code: 'linearRegExp' },
);

function ajvFor(schema: object): Ajv {
  ajvs ??= new Map();
  const draft = schemaDraft(schema);
  let ajv = ajvs.get(draft);
  if (!ajv) {
    // multipleOf to 8 digits, as the form's validator (rjsf) checks it: 19.99 is a multiple of 0.01, though its float is not.
    const options = {
      allErrors: true,
      strict: false,
      logger: false,
      ownProperties: true,
      multipleOfPrecision: 8,
      code: { regExp: linearRegExp },
      // Each schema is checked against its meta-schema by `checkSchema`, in linear time, before it is compiled.
      validateSchema: false,
    } as const;
    ajv = draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    ajvs.set(draft, ajv);
  }
  return ajv;
}

const ENDLESS = 'it refers to itself without end';
/**
 * ajv compiles each schema to code (`new Function`), which a page whose Content Security Policy has no
 * 'unsafe-eval' in script-src forbids, with an EvalError: the schema is not at fault, the page is.
 */
const FORBIDDEN = "the page's Content Security Policy forbids compiling it to code ('unsafe-eval' in script-src allows it)";

/** A schema ajv could not compile because code generation is forbidden where it runs. */
class CodeGenerationForbidden extends Error {}
const TOO_LARGE = `it is too large to check: its $refs expand it to more than ${SCHEMA_SIZE_LIMIT.toLocaleString('en-US')} subschemas`;

/**
 * Checks `schema` against its meta-schema as ajv's `compile` would (its
 * `validateSchema`), throwing what it throws, in time linear in the schema:
 * ajv checks the copy `enumCopy` makes, whose verdict is the schema's (the
 * interrupt form checks the same copy).
 */
function checkSchema(ajv: Ajv, schema: object): void {
  if (ajv.validateSchema(enumCopy(schema) as object) === false) throw new Error(`schema is invalid: ${ajv.errorsText(ajv.errors)}`);
}

/** Whether ajv holds a schema under `id` (a meta-schema's, with or without its empty fragment). */
function holds(ajv: Ajv, id: string): boolean {
  try {
    return ajv.getSchema(id.replace(/#$/, '')) !== undefined;
  } catch {
    return false;
  }
}

function validatorFor(schema: object): ValidateFunction | Error {
  compiled ??= new WeakMap();
  let v = compiled.get(schema);
  if (!v) {
    // One ajv for every schema (a new one costs ~25 ms), which keeps none of them: a schema's `$id` is not
    // registered (two interrupts may carry the same `$id`, and one cannot reach the other's schema by it),
    // and each compiled schema is removed from ajv's cache, so it lives only as long as its interrupt.
    const ajv = ajvFor(schema);
    const id = (schema as { $id?: unknown }).$id;
    // An `$id` ajv holds already (a meta-schema's): compiling fails, and removing the schema by its `$id` afterwards
    // would remove the meta-schema, which every later schema of every controller needs.
    if (typeof id === 'string' && holds(ajv, id)) v = new Error(`its $id ${JSON.stringify(id)} names a schema the validator holds already`);
    else if (!Number.isFinite(schemaSize(schema))) v = new Error(TOO_LARGE);
    else {
      try {
        checkSchema(ajv, schema);
        v = ajv.compile(schema);
        // An asynchronous schema's check answers with a promise, later: no answer is taken that was not checked.
        if ((v as { $async?: unknown }).$async === true) v = new Error('asynchronous schemas ($async) are not supported');
      } catch (e) {
        v =
          e instanceof EvalError
            ? new CodeGenerationForbidden(FORBIDDEN)
            : e instanceof RangeError
              ? new Error(ENDLESS)
              : e instanceof Error
                ? e
                : new Error(thrownText(e));
      } finally {
        ajv.removeSchema(schema);
      }
    }
    compiled.set(schema, v);
  }
  return v;
}

/**
 * Validates an interrupt's answer against its `responseSchema` (ajv): the
 * answer's problems as readable strings, empty when it is acceptable, or
 * `{ schemaInvalid }` when the schema cannot be compiled or refers to itself
 * without end (`{ "$ref": "#" }`): never throws.
 */
export const validateResponsePayload: PayloadValidator = (interrupt, payload) => {
  if (!interrupt.responseSchema) return [];
  const v = validatorFor(interrupt.responseSchema);
  if (v instanceof CodeGenerationForbidden)
    return { schemaInvalid: `the interrupt's responseSchema cannot be compiled: ${v.message}`, cause: 'code-generation-forbidden' };
  if (v instanceof Error) return { schemaInvalid: `the interrupt's responseSchema cannot be compiled: ${v.message}` };
  // A stack overflow is the only way ajv's code meets a schema that refers to itself without end.
  try {
    if (v(payload)) return [];
  } catch (e) {
    if (e instanceof EvalError)
      return { schemaInvalid: `the interrupt's responseSchema cannot be checked: ${FORBIDDEN}`, cause: 'code-generation-forbidden' };
    const why = e instanceof RangeError ? ENDLESS : thrownText(e);
    return { schemaInvalid: `the interrupt's responseSchema cannot be checked: ${why}` };
  }
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
