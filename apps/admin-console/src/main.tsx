import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadConsoleConfig } from './config.ts';
import { installLeaveGuard } from './leave-guard.ts';

installLeaveGuard();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');
const root = createRoot(container);

function renderFailure(message: string) {
  root.render(
    <StrictMode>
      <main id="main" className="narrow-page">
        <h1>Catalog admin console</h1>
        <div className="alert alert-error" role="alert">
          <p>The console could not start: {message}</p>
          <p>Reload the page to try again.</p>
        </div>
      </main>
    </StrictMode>,
  );
}

root.render(
  <main id="main" className="narrow-page">
    <h1>Catalog admin console</h1>
    <p role="status" aria-busy="true">
      Loading…
    </p>
  </main>,
);

loadConsoleConfig().then(
  (config) =>
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    ),
  (error: unknown) => renderFailure(error instanceof Error ? error.message : 'config.json could not be read'),
);
