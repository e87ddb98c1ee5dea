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
