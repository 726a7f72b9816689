/** A real SMTP server on loopback (the smtp-server package) that keeps what it receives. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text body, quoted-printable decoded. */
  text: string;
  raw: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = unfolded.match(/^Subject: (.*)$/im)?.[1] ?? "";
  const quotedPrintable = /^Content-Transfer-Encoding: quoted-printable$/im.test(unfolded);
  return { from, to, subject, text: quotedPrintable ? decodeQuotedPrintable(body) : body, raw };
}

export async function startSmtpServer(): Promise<{
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to`; fails after timeoutMs (default 15 s) naming the address and the mails that did arrive. */
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const waiting: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mail = parse(
          Buffer.concat(chunks).toString("utf8"),
          session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          session.envelope.rcptTo.map((rcpt) => rcpt.address),
        );
        mails.push(mail);
        for (const waiter of waiting.filter((w) => mail.to.includes(w.to))) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail(to, timeoutMs = 15_000) {
      const found = mails.find((mail) => mail.to.includes(to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          to,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          const received = mails.map((mail) => `${mail.to.join(", ")}: ${mail.subject}`);
          reject(new Error(`no mail to ${to} arrived within ${timeoutMs} ms; mails received: ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function firstLink(text: string): string {
  const link = text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in mail:\n${text}`);
  return link;
}
