/**
 * The server's time as seen from this device. Session deadlines come in server time; a device
 * whose clock is off by minutes would otherwise warn and sign out minutes early or late. Every API
 * response carries the server's time (header SERVER_TIME_HEADER, Unix milliseconds).
 */
let offsetMs = 0;

/** Records the server-time header of a response from our server. */
export function recordServerTime(header: string | null, receivedAt = Date.now()): void {
  const serverTime = header ? Number(header) : Number.NaN;
  if (Number.isFinite(serverTime) && serverTime > 0) offsetMs = serverTime - receivedAt;
}

/** Now, in the server's time. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}
