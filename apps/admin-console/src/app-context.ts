// What every page needs: the configuration and the typed API.
import { createContext, useContext } from 'react';
import type { CatalogAdminApi } from './api/endpoints.ts';
import type { ConsoleConfig } from './config.ts';

export interface AppContextValue {
  readonly config: ConsoleConfig;
  readonly api: CatalogAdminApi;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (value === null) throw new Error('useApp outside <AppContext.Provider>');
  return value;
}
