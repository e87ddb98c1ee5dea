/**
 * An interrupt's expiry read by the clock it is given: a new clock (a
 * replay's store at another entry) is read at once, not the time the last
 * clock gave.
 */
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useExpiry } from '../src/Countdown.js';

const deadline = '2026-12-01T10:00:00Z';
const at = (iso: string) => () => Date.parse(iso);

describe('useExpiry given another clock', () => {
  it('reads it at once: expired by one clock, running again by one before the deadline, and expired again', () => {
    const { result, rerender } = renderHook(({ now }) => useExpiry(deadline, now), { initialProps: { now: at('2026-12-01T10:01:00Z') } });
    expect(result.current.state).toBe('expired');
    rerender({ now: at('2026-12-01T09:59:00Z') });
    expect(result.current).toEqual({ state: 'running', remainingMs: 60_000 });
    rerender({ now: at('2026-12-01T10:00:30Z') });
    expect(result.current.state).toBe('expired');
  });
});
