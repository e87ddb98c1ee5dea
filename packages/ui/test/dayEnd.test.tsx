import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, localeValue } from '../src/locale.js';
import { useMomentText } from '../src/useHydrated.js';

const { format } = localeValue(en);

/** How often a component saying moments with the clock `now` renders while `ms` pass, by steps of `step`. */
function rendersOver(now: () => number, ms: number, step: number): number {
  let renders = 0;
  const { unmount } = renderHook(() => {
    renders++;
    return useMomentText(format, 'en', now);
  });
  const before = renders;
  for (let passed = 0; passed < ms; passed += step) act(() => vi.advanceTimersByTime(step));
  unmount();
  return renders - before;
}

describe("a moment of today gains its date at the reader's midnight", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('renders once as a running clock passes midnight, and not before', () => {
    const start = new Date(2026, 10, 29, 23, 59, 0).getTime();
    let clock = start;
    let renders = 0;
    renderHook(() => {
      renders++;
      return useMomentText(format, 'en', () => clock);
    });
    const before = renders;
    for (let s = 1; s <= 120; s++) {
      clock = start + s * 1_000;
      act(() => vi.advanceTimersByTime(1_000));
      if (s === 59) expect(renders - before).toBe(0);
    }
    expect(renders - before).toBe(1);
  });

  it('shows the date as the page is seen again after a sleep past midnight, before the late timer fires', () => {
    // A sleeping laptop's timers stand still with it: the day's timer fires hours late. Waking shows the page again.
    const yesterday = new Date(2026, 10, 29, 21, 0, 0).getTime();
    let clock = yesterday;
    const { result } = renderHook(() => useMomentText(format, 'en', () => clock)(yesterday));
    expect(result.current).toBe(format.time(yesterday));
    clock = new Date(2026, 10, 30, 8, 0, 0).getTime();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current).toBe(format.dateTime(yesterday));
    // Seen again the same day: nothing to render.
    let renders = 0;
    const counted = renderHook(() => {
      renders++;
      return useMomentText(format, 'en', () => clock);
    });
    const before = renders;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(renders - before).toBe(0);
    counted.unmount();
  });

  it('does not render again and again on a clock that stands still (a replay at its entry) a moment before midnight', () => {
    const frozen = new Date(2026, 10, 29, 23, 59, 59, 990).getTime();
    expect(rendersOver(() => frozen, 1_000, 10)).toBeLessThanOrEqual(1);
  });

  it("does not render again and again on a clock past Date's range, which has no midnight", () => {
    expect(rendersOver(() => 8.64e15, 100, 1)).toBe(0);
  });
});
