import { configValue, type Repo } from "./repo.js";

/** A signature as isomorphic-git takes it: seconds, and the zone as Date#getTimezoneOffset gives it. */
export interface Signature {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** `+0100` as minutes east of UTC (60). */
function zoneMinutes(zone: string): number {
  const match = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/**
 * A date as git takes it in GIT_AUTHOR_DATE and GIT_COMMITTER_DATE: `@1700000000 +0100`,
 * `1700000000 +0100`, or an ISO 8601 / RFC 2822 date. Undefined when it cannot be read.
 */
function parseGitDate(text: string): { timestamp: number; zone: number } | undefined {
  const trimmed = text.trim();
  const raw = /^@?(\d+)(?:\s+([+-]\d\d:?\d\d))?$/.exec(trimmed);
  if (raw) return { timestamp: Number(raw[1]), zone: raw[2] ? zoneMinutes(raw[2]) : 0 };
  const millis = Date.parse(trimmed);
  if (Number.isNaN(millis)) return undefined;
  const zone = /([+-]\d\d:?\d\d)$/.exec(trimmed)?.[1];
  return {
    timestamp: Math.floor(millis / 1000),
    zone: zone ? zoneMinutes(zone) : /Z$/.test(trimmed) ? 0 : -new Date(millis).getTimezoneOffset(),
  };
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** `+0100` from minutes east of UTC. */
function formatZone(zoneMinutesEast: number): string {
  const sign = zoneMinutesEast < 0 ? "-" : "+";
  const abs = Math.abs(zoneMinutesEast);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** The wall-clock parts of a moment in the given zone. */
function wallClock(timestamp: number, zoneMinutesEast: number) {
  const d = new Date((timestamp + zoneMinutesEast * 60) * 1000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  };
}

/** git's default date format: `Tue Nov 14 23:13:20 2023 +0100`. */
export function formatDefaultDate(timestamp: number, zoneMinutesEast: number): string {
  const w = wallClock(timestamp, zoneMinutesEast);
  return `${DAYS[w.weekday]} ${MONTHS[w.month]} ${w.day} ${w.time} ${w.year} ${formatZone(zoneMinutesEast)}`;
}

/** `--date=iso`: `2023-11-14 23:13:20 +0100`. */
export function formatIsoDate(timestamp: number, zoneMinutesEast: number): string {
  const w = wallClock(timestamp, zoneMinutesEast);
  return `${w.year}-${pad(w.month + 1)}-${pad(w.day)} ${w.time} ${formatZone(zoneMinutesEast)}`;
}

/** `--date=iso-strict`: `2023-11-14T23:13:20+01:00`. */
export function formatStrictIsoDate(timestamp: number, zoneMinutesEast: number): string {
  const w = wallClock(timestamp, zoneMinutesEast);
  const zone = formatZone(zoneMinutesEast);
  return `${w.year}-${pad(w.month + 1)}-${pad(w.day)}T${w.time}${zoneMinutesEast === 0 ? "Z" : `${zone.slice(0, 3)}:${zone.slice(3)}`}`;
}

/** `--date=relative`: `5 minutes ago`, roughly as git words it. */
export function formatRelativeDate(timestamp: number, now = Math.floor(Date.now() / 1000)): string {
  const diff = now - timestamp;
  if (diff < 0) return "in the future";
  const units: [number, string][] = [
    [60, "second"],
    [60 * 60, "minute"],
    [24 * 60 * 60, "hour"],
    [14 * 24 * 60 * 60, "day"],
    [70 * 24 * 60 * 60, "week"],
    [365 * 24 * 60 * 60, "month"],
  ];
  const sizes = [1, 60, 60 * 60, 24 * 60 * 60, 7 * 24 * 60 * 60, 30 * 24 * 60 * 60];
  for (let i = 0; i < units.length; i++) {
    if (diff < units[i]![0]) {
      const n = Math.round(diff / sizes[i]!);
      return `${n} ${units[i]![1]}${n === 1 ? "" : "s"} ago`;
    }
  }
  const years = Math.round(diff / (365 * 24 * 60 * 60));
  return `${years} year${years === 1 ? "" : "s"} ago`;
}

/**
 * Who is committing, as git works it out: GIT_AUTHOR_* / GIT_COMMITTER_* first, then
 * `user.name` / `user.email` from the config; where git would refuse, a workbench default.
 */
export async function signature(repo: Repo, role: "AUTHOR" | "COMMITTER"): Promise<Signature> {
  const env = repo.env;
  const user = env.get("USER") || "user";
  const name = env.get(`GIT_${role}_NAME`) || (await configValue(repo, "user.name")) || user;
  const email = env.get(`GIT_${role}_EMAIL`) || env.get("EMAIL") || (await configValue(repo, "user.email")) || `${user}@workbench.local`;
  const date = env.get(`GIT_${role}_DATE`);
  const parsed = date ? parseGitDate(date) : undefined;
  const now = Math.floor(Date.now() / 1000);
  const zone = parsed?.zone ?? -new Date().getTimezoneOffset();
  return { name, email, timestamp: parsed?.timestamp ?? now, timezoneOffset: -zone };
}
