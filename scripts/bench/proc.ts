/**
 * CPU time of other processes on this machine, from /proc (Linux): what a benchmark's server
 * processes, its database and its fake engine each used, all threads counted.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, …], or null when it is gone. */
export function statFields(pid: number | string): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

// Indexes in statFields: utime and stime are fields 14 and 15 of stat, cutime and cstime 16 and 17.
const UTIME = 11;
const STIME = 12;
const CUTIME = 13;
const CSTIME = 14;

/** A process's CPU so far (user + system, every thread) in ms; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? ((Number(fields[UTIME]) + Number(fields[STIME])) * 1000) / CLOCK_TICKS : null;
}

/** A process's CPU with its live children's and what its exited children used (cutime, cstime), in ms. */
export function processTreeCpuMs(pid: number): number | null {
  const own = statFields(pid);
  if (!own) return null;
  let ticks = Number(own[UTIME]) + Number(own[STIME]) + Number(own[CUTIME]) + Number(own[CSTIME]);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === pid) ticks += Number(fields[UTIME]) + Number(fields[STIME]);
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
