'use client';

import type { ResumeRefusal } from '@aguikit/core';
import type { InterruptMessages } from './interruptForm.js';
import { useLocale } from './locale.js';

/**
 * A refusal of a resume in the locale's words, by its code; the store's own
 * message (English, naming ids and schema paths) only for a code the locale
 * does not know. A schema the page's Content Security Policy forbids
 * compiling (`cause: 'code-generation-forbidden'`) is not at fault: the
 * refusal says what the page forbids.
 */
function refusalText(t: InterruptMessages, refusal: ResumeRefusal): string {
  if (forbidden(refusal)) return t.formForbidden;
  return Object.hasOwn(t.refusals, refusal.code) ? t.refusals[refusal.code as keyof InterruptMessages['refusals']] : refusal.message;
}

/** Refusals whose store message holds what a person can act on (which field, what the schema wanted): shown after the sentence. */
const DETAILED_REFUSALS: ReadonlySet<string> = new Set(['PAYLOAD_INVALID', 'SCHEMA_INVALID']);

/** Whether the page, not the schema, is why answers cannot be checked. */
const forbidden = (refusal: ResumeRefusal): boolean => refusal.code === 'SCHEMA_INVALID' && refusal.cause === 'code-generation-forbidden';

/** The list items of a refused resume: each refusal's sentence, with the store's detail where it helps. */
export function RefusalItems({ errors }: { errors: readonly ResumeRefusal[] }) {
  const t = useLocale().messages.interrupt;
  return errors.map((e) => (
    <li key={`${e.code}:${e.message}`} data-code={e.code}>
      {refusalText(t, e)}
      {DETAILED_REFUSALS.has(e.code) && !forbidden(e) ? (
        <span className="agk-interrupt__error-detail" lang="en">
          {e.message}
        </span>
      ) : null}
    </li>
  ));
}
