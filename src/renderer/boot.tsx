/** Start the session on main's API (window.fieldbook) and render the app (loaded by main.tsx, after zod's setting). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { startSession } from './app/session.ts';
import { RootErrorBoundary } from './components/RootErrorBoundary.tsx';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
const api = window.fieldbook;
if (api) {
  void startSession(api);
  root.render(
    <StrictMode>
      <RootErrorBoundary>
        <App />
      </RootErrorBoundary>
    </StrictMode>,
  );
} else {
  // opened outside the app shell and the harness: there is nothing to talk to
  root.render(<p role="alert">Fieldbook could not reach its main process. Start it with npm start.</p>);
}
