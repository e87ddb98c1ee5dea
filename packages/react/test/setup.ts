import '@testing-library/jest-dom/vitest';
import { loadEngine } from '@aguikit/core';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// An application's controller asks for the engine as it is made, and has it long before a user's first message.
// These tests start runs the moment their store exists and push events at once, so the engine is loaded first.
// A run that starts before the engine has loaded is tested in packages/core/test/engineLoading.test.ts.
beforeAll(() => loadEngine());
afterEach(cleanup);
