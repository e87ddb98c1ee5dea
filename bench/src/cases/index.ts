import type { BenchCase } from '../case.js';
import { bundleSizeCase } from './bundleSize.js';
import { floorCase } from './floor.js';
import { perTokenCase } from './perToken.js';
import { sharedStateCase } from './sharedState.js';
import { toolArgsCase } from './toolArgs.js';

/**
 * The cases `pnpm bench` runs, in the order of issue 6. Case 5 (rendering in
 * real Chromium) is a module of the same `BenchCase` shape, added here once
 * the component it renders exists; see docs/BENCHMARKS.md.
 */
export const defaultCases: readonly BenchCase[] = [perTokenCase, floorCase, toolArgsCase, sharedStateCase, bundleSizeCase];
