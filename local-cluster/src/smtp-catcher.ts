import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { EventEmitter } from 'node:events';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One caught mail as the inbox API returns it. */
export interface CaughtMail {
  id: string;
  /** Envelope and header recipients (to, cc), lowercase. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  /** When the catcher received it (ISO, ms precision), so tests can compare with their own clock. */
  date: string;
  links: string[];
  codes: string[];
}

export interface SmtpCatcherOptions {
  /** 0 picks a free port. */
  smtpPort: number;
  /** 0 picks a free port. */
  httpPort: number;
  /** Where to write each message as an .eml file; none when absent. */
  dir?: string;
  /** One line per caught mail, for developers; silent when absent. */
  log?: (line: string) => void;
  /** Messages kept in memory; the oldest go first. */
  capacity?: number;
}

export interface SmtpCatcher {
  smtpPort: number;
  httpPort: number;
  smtpUrl: string;
  inboxUrl: string;
  messages(): readonly CaughtMail[];
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
const LINK_PATTERN = /https?:\/\/[^\s<>"'`]+/g;
const CODE_PATTERN = /(?<![\w-])\d{6}(?![\w-])/g;

/** Starts an SMTP server that accepts every message (no auth, no TLS) and an HTTP inbox to read them back. */
export async function startSmtpCatcher({
  smtpPort,
  httpPort,
  dir,
  log,
  capacity = 1000,
}: SmtpCatcherOptions): Promise<SmtpCatcher> {
  const inbox: CaughtMail[] = [];
  if (dir) await mkdir(dir, { recursive: true });

  const smtp = catchingSmtpServer(async (raw, envelopeTo) => {
    const mail = await parseMail(raw, envelopeTo);
    inbox.unshift(mail);
    if (inbox.length > capacity) inbox.length = capacity;
    if (dir) await writeFile(path.join(dir, `${mail.date.replace(/[:.]/g, '-')}-${mail.id}.eml`), raw);
    log?.(`mail to ${mail.to.join(', ')}: ${[mail.subject, ...mail.links, ...mail.codes].join(' ')}`);
  });
  const inboxServer = http.createServer((req, res) => serveInbox(inbox, req, res));

  const closeSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()));
  const closeHttp = () =>
    new Promise<void>((resolve) => {
      inboxServer.close(() => resolve());
      inboxServer.closeAllConnections();
    });

  const boundSmtp = await listen(smtp.server, smtp, () => smtp.listen(smtpPort, '127.0.0.1'));
  // After startup a broken client connection must not crash the launcher.
  smtp.on('error', (err) => log?.(`smtp catcher error: ${err.message}`));
  let boundHttp: number;
  try {
    boundHttp = await listen(inboxServer, inboxServer, () => inboxServer.listen(httpPort, '127.0.0.1'));
  } catch (err) {
    await closeSmtp();
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    smtpPort: boundSmtp,
    httpPort: boundHttp,
    smtpUrl: `smtp://127.0.0.1:${boundSmtp}`,
    inboxUrl: `http://127.0.0.1:${boundHttp}`,
    messages: () => inbox,
    stop: () => (stopping ??= Promise.all([closeSmtp(), closeHttp()]).then(() => undefined)),
  };
}

/** An SMTP server that accepts every message (up to MAX_MESSAGE_BYTES) and hands it to `onMessage`. */
function catchingSmtpServer(onMessage: (raw: Buffer, envelopeTo: string[]) => Promise<void>): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('message too large'), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        onMessage(raw, envelopeTo).then(
          () => callback(),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
      });
    },
  });
}

/** A received message as the inbox keeps it. */
async function parseMail(raw: Buffer, envelopeTo: string[]): Promise<CaughtMail> {
  const parsed = await simpleParser(raw);
  const text = parsed.text ?? '';
  const subject = parsed.subject ?? '';
  return {
    id: randomUUID(),
    to: unique([...envelopeTo, ...addresses(parsed.to), ...addresses(parsed.cc)].map((a) => a.toLowerCase())),
    from: parsed.from?.value[0]?.address?.toLowerCase() ?? '',
    subject,
    text,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    date: new Date().toISOString(),
    links: extractLinks(text),
    codes: extractCodes(`${subject}\n${text}`),
  };
}

/** The inbox's HTTP API: list (optionally `?to=`), read one, delete all; and an HTML page at `/`. */
function serveInbox(inbox: CaughtMail[], req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://inbox');
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const json = (status: number, value: unknown) =>
    send(status, 'application/json; charset=utf-8', JSON.stringify(value));

  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase();
    return json(200, to ? inbox.filter((m) => m.to.includes(to)) : inbox);
  }
  if (url.pathname === '/messages' && req.method === 'DELETE') {
    inbox.length = 0;
    res.writeHead(204).end();
    return;
  }
  const one = /^\/messages\/([^/]+)$/.exec(url.pathname);
  if (one && req.method === 'GET') {
    const mail = inbox.find((m) => m.id === decodeURIComponent(one[1]!));
    return mail ? json(200, mail) : json(404, { error: 'not_found' });
  }
  if (url.pathname === '/' && req.method === 'GET') return send(200, 'text/html; charset=utf-8', renderIndex(inbox));
  json(404, { error: 'not_found' });
}

function listen(server: Server, errors: EventEmitter, start: () => void): Promise<number> {
  return new Promise((resolve, reject) => {
    errors.once('error', reject);
    server.once('listening', () => {
      errors.removeListener('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
    start();
  });
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field]).flatMap((obj) =>
    obj.value
      .flatMap((entry) => [entry.address, ...(entry.group ?? []).map((member) => member.address)])
      .filter((a): a is string => !!a),
  );
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** The http(s) links of a mail's text. */
export function extractLinks(text: string): string[] {
  // Sentence punctuation after a URL in prose is not part of it.
  return unique([...text.matchAll(LINK_PATTERN)].map((m) => m[0].replace(/[.,;:!?)\]}]+$/, '')));
}

/** The six-digit codes of a mail's subject and text. */
export function extractCodes(text: string): string[] {
  // Digits inside links (tokens, ids) are not codes a user would type.
  return unique([...text.replace(LINK_PATTERN, ' ').matchAll(CODE_PATTERN)].map((m) => m[0]));
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function renderIndex(inbox: readonly CaughtMail[]): string {
  const rows = inbox
    .map((m) => {
      const links = m.links.map((l) => `<a href="${escapeHtml(l)}">${escapeHtml(l)}</a>`).join('<br>');
      return `<tr><td>${escapeHtml(m.date)}</td><td>${escapeHtml(m.to.join(', '))}</td><td><a href="/messages/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td><td>${links}</td><td>${escapeHtml(m.codes.join(' '))}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>wms mail</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4em;text-align:left;vertical-align:top}td:nth-child(4){word-break:break-all}</style>
</head><body><h1>wms mail (${inbox.length})</h1>
<table><thead><tr><th>received</th><th>to</th><th>subject</th><th>links</th><th>codes</th></tr></thead><tbody>
${rows || '<tr><td colspan="5">no mail yet</td></tr>'}
</tbody></table></body></html>
`;
}
