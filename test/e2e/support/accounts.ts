import { expect } from 'vitest';
import { api, randomIp, uniqueEmail } from './http.ts';
import { linkToken, waitForMail } from './mail.ts';

export interface Account {
  email: string;
  password: string;
  ip: string;
  token: string;
  userId: string;
}

/** Registers through the API, follows the mailed link and returns a signed-in account. */
export async function signUp(tag = 'user', ip = randomIp()): Promise<Account> {
  const email = uniqueEmail(tag);
  const password = 'correct-horse-1';
  const registered = await api('POST', '/auth/register', { body: { email, password, name: `Test ${tag}` }, ip });
  expect(registered.status).toBe(201);
  const token = linkToken(await waitForMail(email));
  const verified = await api('POST', '/auth/verify-email', { body: { token }, ip });
  expect(verified.status).toBe(200);
  const body = verified.body as { access_token: string; user: { id: string } };
  return { email, password, ip, token: body.access_token, userId: body.user.id };
}

/** Signs in with a password and returns the access token. */
export async function logIn(account: Pick<Account, 'email' | 'password' | 'ip'>): Promise<string> {
  const res = await api('POST', '/auth/login', {
    body: { email: account.email, password: account.password },
    ip: account.ip,
  });
  expect(res.status).toBe(200);
  return (res.body as { access_token: string }).access_token;
}

/** Asserts the contract's error body and returns it. */
export function expectError(res: { status: number; body: unknown; headers: Headers }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as {
    error: { code: string; message: string; request_id: string; details?: Array<{ field: string; message: string }> };
  };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  return body.error;
}
