import { useEffect, useState } from "react";
import { serverNow } from "../lib/serverClock";

/** The server's "now", ticking every intervalMs while active (for elapsed timers). */
export function useServerNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return;
    setNow(serverNow());
    const timer = window.setInterval(() => setNow(serverNow()), intervalMs);
    return () => window.clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
