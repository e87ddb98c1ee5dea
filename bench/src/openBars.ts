/**
 * Bars of issue 6 that aguikit does not meet yet, each with what stands in
 * the way, keyed `case:bar text`. A miss of one of these is reported but does
 * not fail the run; a miss of any other bar (a regression) does. Add an entry
 * only with the measured figure and its obstacle; remove it once the bar is met.
 */
export const OPEN_BARS: ReadonlyMap<string, string> = new Map([
  [
    '4:The first STATE_DELTA after a 100,000-key STATE_SNAPSHOT costs at most 2x a delta on a 100-key document',
    'measured 10.2x in a clean-clone CI run at ef47ae2 (184 µs against 18 µs; a 100-key delta of another pipeline right after such a snapshot 230 µs), 11.7x in a full run at caf7b78 (161 µs against 13 µs), 11.8x at 96fd6bf (152 µs against 13 µs), 12.2x, 11x, 12.4x, 11.2x, 11.9x, 12.4x, 12.3x and 13.9x in earlier full runs; the slowest first delta 0.2–2.5 ms, against 55–147 ms before the overlay. ' +
      'A delta on a 100-key document of another pipeline, timed right after the same kind of snapshot, costs the same (162 µs: the first delta is 0.941x that). ' +
      'A full garbage collection (`gc()`) between the snapshot and the delta leaves the first delta as it was, and building a Map of 100,000 small records (no object of 100,000 keys, nothing aguikit sees) costs the next 100-key delta the same 114–134 µs: it is the memory the process just touched, whatever holds it. ' +
      "What stands in the way is the state the machine is in after 100,000 objects were built, not aguikit's write: in a probe outside the bench, a 100-key delta costs 8 µs settled, 127–143 µs right after the fixture merely builds a 100,000-key document (aguikit never sees it), 67 µs right after the process writes 32 MB of a typed array (no allocation, no collection: CPU caches and TLB), and still 159 µs 50 ms after such a snapshot; `--trace-gc` shows no collection inside any timed first delta, `--trace-deopt` no deoptimization, and `process.resourceUsage()` no page fault, and `--no-flush-bytecode` (V8 keeping every function's bytecode through collections) leaves the first delta at 157 µs; wall time says what CPU time says (so it is not V8's helper threads), and a CPU profile spreads the extra time over every function of the path rather than one. " +
      'With the code warmed by one small delta first, the first write into the 100,000-key document costs about 50 µs and the second 11 µs. The first write does O(1) work (packages/core/test/largeObject.test.ts). ' +
      'I think the bar should compare against a 100-key delta timed right after an equally large allocation (the reference figure above); it is left as stated.',
  ],
]);

export const openReason = (caseNumber: number, text: string): string | undefined => OPEN_BARS.get(`${caseNumber}:${text}`);
