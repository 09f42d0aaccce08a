/** A session is named after the first line of its first message, cut to 60 characters. */
const TITLE_LENGTH = 60;

export function sessionTitleFrom(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
