import { useCallback, useState } from 'react';

// The session token lives in sessionStorage: it survives a reload of the tab but not the tab itself, and no other
// site can read it; signing out removes it (docs/web-client.md says why not a cookie or localStorage).
const KEY = 'wms.session';

export function useSession(): { token: string | null; signIn: (token: string) => void; signOut: () => void } {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(KEY));
  const signIn = useCallback((t: string) => {
    sessionStorage.setItem(KEY, t);
    setToken(t);
  }, []);
  const signOut = useCallback(() => {
    sessionStorage.removeItem(KEY);
    setToken(null);
  }, []);
  return { token, signIn, signOut };
}
