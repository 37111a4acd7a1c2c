import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SignedIn } from './api';

export interface SessionState {
  signedIn: SignedIn;
  /** Signs out here (the API session is ended by the caller, or already over). */
  forget(message?: string): void;
}

export const SessionContext = createContext<SessionState | undefined>(undefined);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export const isAdmin = (session: SessionState) => session.signedIn.user.role === 'admin';
