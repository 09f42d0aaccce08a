/** A core metadata file (METADATA, PKG-INFO): email-style headers, repeated ones kept in order. */
export interface CoreMetadata {
  name: string;
  version: string;
  get(field: string): string | undefined;
  all(field: string): string[];
}

export function parseMetadata(text: string): CoreMetadata {
  const fields: Array<[string, string]> = [];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (line === "") break; // The body (the long description) starts after the first empty line.
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last[1] += `\n${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon > 0) fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
  const all = (field: string) => fields.filter(([key]) => key === field.toLowerCase()).map(([, value]) => value);
  const get = (field: string) => all(field)[0];
  return { name: get("name") ?? "", version: get("version") ?? "", get, all };
}
