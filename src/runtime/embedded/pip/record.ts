/** RECORD files (PEP 376): CSV rows of path, hash, size, written as Python's csv module writes them. */
export type RecordRow = [path: string, hash: string, size: string];

/** Reads CSV as Python's csv.reader does for RECORD: commas, double-quoted fields, doubled quotes. */
export function parseRecord(text: string): RecordRow[] {
  const rows: RecordRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    const fields: string[] = [];
    let field = "";
    let quoted = false;
    for (let at = 0; at < line.length; at++) {
      const char = line[at]!;
      if (quoted) {
        if (char === '"' && line[at + 1] === '"') {
          field += '"';
          at++;
        } else if (char === '"') quoted = false;
        else field += char;
      } else if (char === '"') quoted = true;
      else if (char === ",") {
        fields.push(field);
        field = "";
      } else field += char;
    }
    fields.push(field);
    rows.push([fields[0] ?? "", fields[1] ?? "", fields[2] ?? ""]);
  }
  return rows;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Rows sorted as pip sorts them, each line ended by `\r\n` (csv.writer's default). */
export function formatRecord(rows: RecordRow[]): string {
  const sorted = [...rows].sort((a, b) => compareRows(a, b));
  return sorted.map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}

function compareRows(a: RecordRow, b: RecordRow): number {
  for (let index = 0; index < 3; index++) {
    if (a[index]! < b[index]!) return -1;
    if (a[index]! > b[index]!) return 1;
  }
  return 0;
}

/** `sha256=` and the unpadded urlsafe base64 of the digest, as RECORD spells a hash. */
export async function recordHash(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha256=${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}
