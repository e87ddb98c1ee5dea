import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { Minimal } from './Minimal';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
// `?minimal` shows the hooks-only chat of the README's "In React"; the default is the components.
const minimal = new URLSearchParams(location.search).has('minimal');
createRoot(root).render(<StrictMode>{minimal ? <Minimal /> : <App />}</StrictMode>);
