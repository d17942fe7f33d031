import type { Logger } from '@wms/kit/logger';
import nodemailer from 'nodemailer';
import type { Mail } from '../domain/mail.ts';
import type { Mailer } from '../identity.service.ts';

/** The SMTP mailer and what shutdown needs of it: `close` waits a little for mail still being sent. */
export interface SmtpMailer extends Mailer {
  close(): Promise<void>;
}

const retryDelaysMs = [1000, 5000, 20_000];

/** Mail over SMTP (`SMTP_URL`), retried a few times; failures are logged without the body, which holds secrets. */
export function createSmtpMailer(smtpUrl: string, from: string, log: Logger): SmtpMailer {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  const inFlight = new Set<Promise<void>>();

  const deliver = async (mail: Mail) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
        return;
      } catch (err) {
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) {
          log.error({ err: (err as Error).message, subject: mail.subject }, 'mail could not be sent');
          return;
        }
        log.warn({ err: (err as Error).message, attempt: attempt + 1 }, 'mail send failed; retrying');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };

  return {
    send(mail) {
      const p = deliver(mail).finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async close() {
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, 3000))]);
      transport.close();
    },
  };
}
