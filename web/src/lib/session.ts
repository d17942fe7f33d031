import { useCallback, useState } from 'react';

// The session token lives in sessionStorage: it survives a reload of the tab but not the tab itself, and no other
// site can read it; signing out removes it (docs/web-client.md says why not a cookie or localStorage).
const KEY = 'wms.session';

/**
 * A session handed over by the gateway's account pages (a mailed link signed the person in): `#session=<token>` in the
 * address, taken out of it (and so out of the history) at once. Otherwise the tab's stored session, if any.
 */
function takeHandedOver(): string | null {
  const handed = new URLSearchParams(location.hash.slice(1)).get('session');
  if (handed) {
    sessionStorage.setItem(KEY, handed);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY);
}

export function useSession(): { token: string | null; signIn: (token: string) => void; signOut: () => void } {
  const [token, setToken] = useState<string | null>(takeHandedOver);
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
