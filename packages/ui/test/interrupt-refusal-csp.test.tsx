/**
 * A resume refused because the page's Content Security Policy forbids
 * compiling the interrupt's responseSchema (`cause: 'code-generation-forbidden'`):
 * the schema is not at fault, so the refusal says what the page forbids, in
 * the locale's words, not that the agent described the answer badly.
 */
import type { ResumeRefusal } from '@aguikit/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentLocaleProvider, zhCN } from '../src/index.js';
import { en as interruptEn, zhCN as interruptZh } from '../src/locales/interrupt.js';
import { RefusalItems } from '../src/RefusalItems.js';

const forbidden: ResumeRefusal = {
  interruptId: 'i1',
  code: 'SCHEMA_INVALID',
  cause: 'code-generation-forbidden',
  message:
    "interrupt i1: the interrupt's responseSchema cannot be compiled: the page's Content Security Policy forbids compiling it to code ('unsafe-eval' in script-src allows it)",
};

describe('a refusal whose cause is a Content Security Policy forbidding code generation', () => {
  it("says the page's policy does not let answers be checked, not that the agent's schema is at fault", () => {
    render(
      <ul>
        <RefusalItems errors={[forbidden]} />
      </ul>,
    );
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent(interruptEn.formForbidden);
    expect(item).not.toHaveTextContent(interruptEn.refusals.SCHEMA_INVALID);
  });

  it("in the locale's words", () => {
    render(
      <AgentLocaleProvider locale={zhCN}>
        <ul>
          <RefusalItems errors={[forbidden]} />
        </ul>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent(interruptZh.formForbidden);
  });

  it('a schema at fault still gets the schema sentence and its detail', () => {
    render(
      <ul>
        <RefusalItems errors={[{ interruptId: 'i1', code: 'SCHEMA_INVALID', message: 'schema is invalid: data/type must be equal' }]} />
      </ul>,
    );
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent(interruptEn.refusals.SCHEMA_INVALID);
    expect(item).toHaveTextContent('schema is invalid');
  });
});
