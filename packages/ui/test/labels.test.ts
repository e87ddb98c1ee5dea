import { describe, expect, it } from 'vitest';
import { humanizeKey } from '../src/interruptForm.js';

describe('humanizeKey: a metadata key or property name as a label', () => {
  it.each([
    ['riskScore', 'Risk score'],
    ['risk_score', 'Risk score'],
    ['risk-score', 'Risk score'],
    ['slaMinutes', 'Sla minutes'],
    ['SLAMinutes', 'SLA minutes'],
    ['orderID', 'Order ID'],
    ['customerIBAN', 'Customer IBAN'],
    ['HTTPStatusCode', 'HTTP status code'],
    ['refundURLSigned', 'Refund URL signed'],
    ['API_KEY', 'Api key'],
    ['MAX_AMOUNT_USD', 'Max amount usd'],
    ['id', 'Id'],
    ['ID', 'ID'],
    ['SKU', 'SKU'],
    ['SKU_1', 'SKU 1'],
    ['userIDs', 'User IDs'],
    ['APIs', 'APIs'],
    ['imageURLs', 'Image URLs'],
    ['allowedIPs', 'Allowed IPs'],
    ['IDsList', 'IDs list'],
    ['top3Items', 'Top3 items'],
    ['退款金额', '退款金额'],
    ['  ', '  '],
  ])('%s reads "%s"', (key, label) => {
    expect(humanizeKey(key)).toBe(label);
  });

  it.each([`${'A'.repeat(100_000)}b`, `${'A'.repeat(100_000)}.`, `${'AB'.repeat(50_000)}s!`])(
    'reads a hostile 100,000-letter key in linear time (%#)',
    (hostile) => {
      const started = performance.now();
      humanizeKey(hostile);
      expect(performance.now() - started).toBeLessThan(1_000);
    },
  );

  it('reads a hostile 100,000-letter key whole', () => {
    const key = `${'A'.repeat(100_000)}b`;
    const started = performance.now();
    const label = humanizeKey(key);
    // A backtracking split takes tens of seconds here; a linear one a few milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(label).toBe(`${'A'.repeat(99_999)} ab`);
  });
});
