import { field } from '../../lib/forms.ts';
import { type FormEvent, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';

/** A new account (POST /auth/register); the mailed link confirms the address and opens the app signed in. */
export function Register() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = field(form, 'email');
    setError(null);
    try {
      await api({ token: null }, 'POST', '/auth/register', {
        name: form.get('name'),
        email,
        password: form.get('password'),
      });
      setSentTo(email);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The server could not be reached.');
    }
  };
  if (sentTo)
    return (
      <p role="status">Check your inbox at {sentTo}: the link there confirms your address and opens wms signed in.</p>
    );
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Create an account">
      <label>
        Your name
        <input name="name" autoComplete="name" required maxLength={80} />
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password (8 to 128 characters)
        <input name="password" type="password" autoComplete="new-password" minLength={8} maxLength={128} required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit">Create the account</button>
    </form>
  );
}
