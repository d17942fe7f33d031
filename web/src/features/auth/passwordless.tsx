import { type FormEvent, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import { field } from '../../lib/forms.ts';

/**
 * Signing in without a password: a mailed link (POST /auth/magic-link; its page hands the session to the app) or a
 * mailed six-digit code typed here (POST /auth/email-code, then POST /auth/verify-code).
 */
export function Passwordless({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const [email, setEmail] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The server could not be reached.');
    }
  };
  const request = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = field(new FormData(event.currentTarget), 'email');
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const code = submitter?.value === 'code';
    void run(async () => {
      await api({ token: null }, 'POST', code ? '/auth/email-code' : '/auth/magic-link', { email: address });
      setNotice(
        code
          ? `If ${address} has an account, a six-digit code is on its way to it.`
          : `If ${address} has an account, a sign-in link is on its way to it: follow it to come back signed in.`,
      );
      setEmail(code ? address : null);
    });
  };
  const verify = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = field(new FormData(event.currentTarget), 'code').trim();
    void run(async () => {
      const auth = await api<{ access_token: string }>({ token: null }, 'POST', '/auth/verify-code', { email, code });
      onSignedIn(auth.access_token);
    });
  };
  return (
    <>
      <form onSubmit={request} aria-label="Sign in without a password">
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <button type="submit" value="link">
          Email me a sign-in link
        </button>{' '}
        <button type="submit" value="code">
          Email me a code
        </button>
      </form>
      {notice && <p role="status">{notice}</p>}
      {email && (
        <form onSubmit={verify} aria-label="Enter the code">
          <label>
            Six-digit code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
          </label>
          <button type="submit">Sign in with the code</button>
        </form>
      )}
      {error && <p role="alert">{error}</p>}
    </>
  );
}
