import type { BenchCase } from '../case.js';
import { bundleSizeCase } from './bundleSize.js';
import { firstLoadCase } from './firstLoad.js';
import { floorCase } from './floor.js';
import { floorChromiumCase } from './floorChromium.js';
import { perTokenCase } from './perToken.js';
import { renderingCase } from './rendering.js';
import { sharedStateCase } from './sharedState.js';
import { toolArgsCase } from './toolArgs.js';

/** The cases `pnpm bench` runs, in the order of issue 6 (case 2 in Node, then in Chromium), then the first load of issue 12. */
export const defaultCases: readonly BenchCase[] = [
  perTokenCase,
  floorCase,
  floorChromiumCase,
  toolArgsCase,
  sharedStateCase,
  renderingCase,
  bundleSizeCase,
  firstLoadCase,
];
