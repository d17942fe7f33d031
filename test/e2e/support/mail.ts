import { type CaughtMail, extractCodes, extractLinks } from '@wms/local-cluster/smtp-catcher';
import { api, inboxUrl, randomIp, uniqueEmail } from './http.ts';

export type { CaughtMail } from '@wms/local-cluster/smtp-catcher';

export interface WaitForMailOptions {
  match?: (mail: CaughtMail) => boolean;
  timeoutMs?: number;
  /** Only mail received at or after this moment. */
  after?: Date;
}

async function getJson<T>(url: URL): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`mail inbox answered ${res.status} to ${url.pathname}`);
  return (await res.json()) as T;
}

/** The mail to `to`, newest first: from the local cluster's catcher, or Mailpit's API (E2E_INBOX_API=mailpit, Tilt's). */
async function inbox(to: string): Promise<CaughtMail[]> {
  if (process.env.E2E_INBOX_API === 'mailpit') return mailpitInbox(to);
  const url = new URL('/messages', inboxUrl());
  url.searchParams.set('to', to);
  return getJson<CaughtMail[]>(url);
}

interface MailpitMessage {
  ID: string;
  From: { Address: string } | null;
  To: Array<{ Address: string }> | null;
  Subject: string;
  Text: string;
  HTML: string;
}

/** Mailpit's search and message API, read into the local catcher's shape (its receive time as `date`). */
async function mailpitInbox(to: string): Promise<CaughtMail[]> {
  const search = new URL('/api/v1/search', inboxUrl());
  search.searchParams.set('query', `to:"${to}"`);
  const { messages } = await getJson<{ messages: Array<{ ID: string; Created: string }> }>(search);
  return Promise.all(
    messages.map(async ({ ID, Created }) => {
      const m = await getJson<MailpitMessage>(new URL(`/api/v1/message/${encodeURIComponent(ID)}`, inboxUrl()));
      return {
        id: m.ID,
        to: (m.To ?? []).map((a) => a.Address.toLowerCase()),
        from: m.From?.Address ?? '',
        subject: m.Subject,
        text: m.Text,
        html: m.HTML || null,
        date: new Date(Created).toISOString(),
        links: extractLinks(m.Text),
        codes: extractCodes(`${m.Subject}\n${m.Text}`),
      };
    }),
  );
}

function accepts(mail: CaughtMail, { match, after }: WaitForMailOptions): boolean {
  return (!after || Date.parse(mail.date) >= after.getTime()) && (!match || match(mail));
}

/** The newest mail to `to` that satisfies the options, waiting for it to arrive. */
export async function waitForMail(to: string, options: WaitForMailOptions = {}): Promise<CaughtMail> {
  const { timeoutMs = 10_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await inbox(to)).find((mail) => accepts(mail, options));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = (await inbox(to)).map((m) => `"${m.subject}" at ${m.date}`);
      throw new Error(`no matching mail to ${to} within ${timeoutMs} ms; inbox holds: ${seen.join(', ') || 'nothing'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Fails when the requests made before it sent a mail to `to` (matching the options, if any). No clock: a canary mail
 * is asked for after them (a registration, from an address of its own), and once it has arrived, a mail the identity
 * service sent before it would have too (it sends each as it decides to, before answering the request).
 */
export async function expectNoMail(to: string, options: Omit<WaitForMailOptions, 'timeoutMs'> = {}): Promise<void> {
  const canary = uniqueEmail('mail-canary');
  const registered = await api('POST', '/auth/register', {
    body: { email: canary, password: 'correct-horse-1', name: 'Canary' },
    ip: randomIp(),
  });
  if (registered.status !== 201) throw new Error(`the canary registration answered ${registered.status}`);
  await waitForMail(canary);
  const found = (await inbox(to)).find((mail) => accepts(mail, options));
  if (found) throw new Error(`expected no mail to ${to}, got "${found.subject}" at ${found.date}`);
}

/** The `token` query parameter of the mail's first link that carries one. */
export function linkToken(mail: CaughtMail): string {
  for (const link of mail.links) {
    const token = new URL(link).searchParams.get('token');
    if (token) return token;
  }
  throw new Error(`mail "${mail.subject}" has no link with a token: ${mail.links.join(' ') || 'no links'}`);
}

/** The mail's first six-digit code. */
export function code(mail: CaughtMail): string {
  const first = mail.codes[0];
  if (!first) throw new Error(`mail "${mail.subject}" has no six-digit code`);
  return first;
}
