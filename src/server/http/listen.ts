import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../logger";
import { capConnectionsPerAddress, hasBody, serverOptions, watchBodyRate, type ConnectionLimits } from "./connection-limits";

export interface RunningServer {
  server: http.Server;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (idle keep-alive connections are
   * closed at once), and after `timeoutMs` cuts whatever is still open. Resolves when closed.
   */
  close(timeoutMs: number): Promise<void>;
}

/**
 * `app`: the request listener (createApp's edge, or an Express app). `limits`: what one client may hold
 * (http/connection-limits.ts); without them, Node's defaults (tests of other things).
 */
export async function listen(
  app: http.RequestListener,
  port: number,
  host: string,
  limits?: { limits: ConnectionLimits; log: Pick<Logger, "warn"> },
): Promise<RunningServer> {
  let server: http.Server;
  if (limits) {
    const { limits: given, log } = limits;
    server = http.createServer(serverOptions(given), (req, res) => {
      if (hasBody(req)) watchBodyRate(req, res, given, log);
      app(req, res);
    });
    capConnectionsPerAddress(server, given, log);
  } else {
    server = http.createServer(app);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (timeoutMs: number) => {
    closing ??= new Promise<void>((resolve) => {
      const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
      // Keep-alive connections hold close() open until they time out: close each one as soon as
      // its last request is answered.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearTimeout(deadline);
        clearInterval(sweep);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };

  return { server, url: `http://${shownHost}:${address.port}`, port: address.port, close };
}
