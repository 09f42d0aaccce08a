/** Messages between the page and the language worker. Requests carry an id; the worker asks for files the same way. */
import type { Diagnostic, Listing, Query } from "./types.js";

export type Request =
  | { id: number; method: "open"; root: string }
  | { id: number; method: "update"; path: string; text: string | null }
  | { id: number; method: "refresh" }
  | { id: number; method: "diagnostics"; paths: string[] }
  | { id: number; method: "query"; query: Query };

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The worker asking the page for files. */
export type FileRequest = { fileRequest: number; read: string[]; list: string[] };
export type FileReply = {
  fileReply: number;
  texts: Record<string, string | null>;
  listings: Record<string, Listing | null>;
  error?: string;
};

type DiagnosticsValue = Record<string, Diagnostic[]>;
