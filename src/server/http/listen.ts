import http from "node:http";
import type { AddressInfo } from "node:net";

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

/** `app`: the request listener (createApp's edge, or an Express app). */
export async function listen(app: http.RequestListener, port: number, host: string): Promise<RunningServer> {
  const server = http.createServer(app);
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
