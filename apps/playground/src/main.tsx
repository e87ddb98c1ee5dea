import { preloadInterruptForm, preloadMarkdown } from '@aguikit/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@aguikit/ui/styles.css';
import './playground.css';
import { App } from './App.js';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The first screen needs neither the Markdown renderer nor the interrupt form (each a chunk of its own): they
// load once the page is idle, so the first reply and the first approval show without waiting for code.
const warm = () => {
  preloadMarkdown().catch(() => undefined);
  preloadInterruptForm().catch(() => undefined);
};
if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
else setTimeout(warm, 200);
