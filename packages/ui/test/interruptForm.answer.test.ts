import { describe, expect, it } from 'vitest';
import { formAnswerText, valueWords } from '../src/interruptForm.js';
import { en } from '../src/locales/interrupt.js';

const words = valueWords(en, {
  number: (n: number) => n.toLocaleString('en'),
  list: (items: readonly string[]) => items.join(', '),
} as never);
const schema = { type: 'object', properties: { pick: { title: 'Pick', enum: [1, '1', null, 'null', '退款', { plan: '基础' }] } } };

describe('an answer to a choice, in words', () => {
  it('says a value as its option read: JSON where two options read alike, or for an object', () => {
    const said = (pick: unknown) => formAnswerText({ pick }, schema, words, en.answer);
    expect(said('1')).toBe('Pick: "1"');
    expect(said(1)).toBe('Pick: 1');
    expect(said('null')).toBe('Pick: "null"');
    expect(said(null)).toBe('Pick: null');
    expect(said('退款')).toBe('Pick: 退款');
    expect(said({ plan: '基础' })).toBe('Pick: {"plan":"基础"}');
  });

  it('says a choice of the whole answer the same way', () => {
    expect(formAnswerText('1', { enum: [1, '1'] }, words, en.answer)).toBe('"1"');
    expect(formAnswerText(1, { enum: [1, '1'] }, words, en.answer)).toBe('1');
  });

  it('says a value of a choice whose options all read apart as before', () => {
    expect(formAnswerText({ pick: 1000 }, { properties: { pick: { title: 'Pick', enum: [1000, 'x'] } } }, words, en.answer)).toBe(
      'Pick: 1,000',
    );
  });
});
