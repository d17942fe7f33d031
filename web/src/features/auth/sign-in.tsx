import { type FormEvent, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import { Passwordless } from './passwordless.tsx';
import { Register } from './register.tsx';

/** Signing in: email and password (POST /auth/login), a mailed link or code, or an account made here. */
export function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const auth = await api<{ access_token: string }>({ token: null }, 'POST', '/auth/login', {
        email: form.get('email'),
        password: form.get('password'),
      });
      onSignedIn(auth.access_token);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <h1>Sign in to wms</h1>
      <form onSubmit={(e) => void submit(e)} aria-label="Sign in">
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && <p role="alert">{error}</p>}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <h2>No password at hand?</h2>
      <Passwordless onSignedIn={onSignedIn} />
      <h2>New here?</h2>
      <Register />
    </main>
  );
}
