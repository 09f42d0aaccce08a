import type { FromRuntime } from "../protocol.js";

/** The program's stdout and stderr on their way to the shell: gathered, and sent at each turn of the loop. */
export class Output {
  /** In the order written, so `2>&1` keeps stdout and stderr interleaved as the program wrote them. */
  private readonly pending: Array<{ stream: "stdout" | "stderr"; bytes: Uint8Array }> = [];
  private size = 0;
  private scheduled = false;
  private readonly encoder = new TextEncoder();
  closed = false;

  constructor(
    private readonly post: (message: FromRuntime, transfer?: Transferable[]) => void,
    private readonly schedule: (run: () => void) => void,
  ) {}

  write(stream: "stdout" | "stderr", chunk: string | Uint8Array): void {
    if (this.closed) return;
    const bytes = typeof chunk === "string" ? this.encoder.encode(chunk) : chunk.slice();
    if (bytes.byteLength === 0) return;
    this.pending.push({ stream, bytes });
    this.size += bytes.byteLength;
    if (this.size >= 64 * 1024) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    this.size = 0;
    const pending = this.pending.splice(0);
    for (let at = 0; at < pending.length; ) {
      const stream = pending[at]!.stream;
      const chunks: Uint8Array[] = [];
      while (at < pending.length && pending[at]!.stream === stream) chunks.push(pending[at++]!.bytes);
      const data = concat(chunks);
      this.post({ kind: "output", stream, data }, [data.buffer as ArrayBuffer]);
    }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const data = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.byteLength;
  }
  return data;
}
