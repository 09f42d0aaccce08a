/**
 * What each request from the host does in the frame. The frame's workspace is its own and lives in
 * memory (main.tsx opens it so): nothing here can reach the visitor's workspaces, sessions or keys. The
 * host can start calls but never answer their permission prompts: a prompt is for the person reading,
 * and only rules in the config the host gave can allow a call without one.
 */
import { dirname, join, relative } from "pathe";
import type { ToolCall, SessionRecord } from "../session/record/session-record.js";
import type { PageChats } from "../page/page-chat.js";
import type { PageTools } from "../page/page-tools.js";
import type { ScriptFile } from "../page/script-file.js";
import type { Runtime } from "../runtime/types.js";
import { importFiles, landingPath } from "../workspace/transfer.js";
import { writeLandsInside } from "../session/config/inside-workspace.js";
import { openPageCheckpoints, pageCheckpointsOf } from "../page/workspace-checkpoints.js";
import type { Checkpoints } from "../workspace/checkpoints/checkpoints.js";
import type { EmbedBackend } from "./frame-server.js";
import { printable, sharePathsProblem } from "./share/paths.js";
import {
  FsDiffParams,
  OpenFileParams,
  parseParams,
  RunParams,
  RevertParams,
  RunToolParams,
  StartParams,
  ThemeParams,
  ViewParams,
} from "./frame-schemas.js";
import type { FileMap, MethodName, ThemeName, ViewName } from "./protocol.js";

/** The frame's page as the backend drives it; the UI provides it (src/ui/embed). */
export interface EmbedSurface {
  runtime(): Runtime;
  /** The session shown, once the sessions are open. */
  page(): Promise<PageTools>;
  /** Starts a call in the session shown, so its card and prompt appear in the frame. */
  start(tool: string, args: Record<string, unknown>): Promise<{ call: ToolCall; done: Promise<ToolCall> }>;
  /** Shows `record` as the session (a recorded session the host gave). */
  adopt(record: SessionRecord): Promise<void>;
  /** Opens the session shown again, so a config written since is in force. */
  reopen(): Promise<void>;
  chats(): Promise<PageChats>;
  openFile(path: string): void;
  setTheme(theme: ThemeName): void;
  setView(view: ViewName): void;
  /** The content's height in CSS pixels. */
  measure(): number;
  /** What the page shows now, for a share link to show the same. */
  looks(): { view: ViewName; theme: ThemeName };
  /**
   * Asks the reader, in the frame, whether the host's `message` may go to `model` on their key: true for
   * Allow once, false for Deny. Never remembered: each message is asked for.
   */
  askReader(request: HostMessageRequest): Promise<boolean>;
}

/** A host page's message waiting for the reader's yes or no. */
export interface HostMessageRequest {
  /** The host page's origin, as the frame's handshake saw it. */
  host: string;
  message: string;
  /** `provider/model`, the reader's model that would answer. */
  model: string;
}

export interface BackendOptions {
  /** The full workbench's address, which share links open (the frame's own page without `?embed=1`). */
  workbench?: string;
  /** The host's files and session are in: the frame reports what it looks like now (its height). */
  onStarted?: () => void;
  /** The origin of the page driving the frame, once it has connected. */
  host?: () => string | undefined;
  /** The author named no view: start() opens the host's first file (unless it names files to open, or a session). */
  openFirstFile?: boolean;
}

const CONFIG_FILE = "opencode.json";
const SCRIPT_NAME = "Recorded session";
/** A replay in an embed plays at the speed of a person reading, like the demo. */
const REPLAY_SPEED = 0.5;

/** A call's record as plain data, safe to post (no functions, no proxies). */
function plain(call: ToolCall): ToolCall {
  return JSON.parse(JSON.stringify(call)) as ToolCall;
}

function encodeFile(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

/** Text when the bytes are UTF-8, else the bytes: a snapshot gives files back in the form they came. */
function decodeFile(bytes: Uint8Array): string | Uint8Array {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes;
  }
}

export class FrameBackend implements EmbedBackend {
  private script: ScriptFile | undefined;
  /** The checkpoint of the files as `start` left them: what reset() goes back to. */
  private startedAt: number | undefined;

  constructor(
    private readonly surface: EmbedSurface,
    private readonly options: BackendOptions = {},
  ) {}

  private get root(): string {
    return this.surface.runtime().root;
  }

  async handle(method: MethodName, params: unknown): Promise<unknown> {
    switch (method) {
      case "start":
        return this.start(parseParams(StartParams, params, method));
      case "applyFsDiff":
        return this.applyFsDiff(parseParams(FsDiffParams, params, method));
      case "getFsSnapshot":
        return this.snapshot();
      case "runTool": {
        const { tool, args } = parseParams(RunToolParams, params, method);
        const { done } = await this.surface.start(tool, args);
        return plain(await done);
      }
      case "run":
        return this.run(parseParams(RunParams, params, method).message);
      case "openFile":
        return this.openFile(parseParams(OpenFileParams, params, method).path);
      case "setTheme":
        return this.surface.setTheme(parseParams(ThemeParams, params, method).theme);
      case "setView":
        return this.surface.setView(parseParams(ViewParams, params, method).view);
      case "measure":
        return this.surface.measure();
      case "shareUrl":
        return this.shareUrl();
      case "revert":
        return this.revert(parseParams(RevertParams, params, method).callID);
      case "reset":
        return this.reset();
    }
  }

  private async start(params: {
    files?: FileMap;
    session?: unknown;
    config?: string | Record<string, unknown>;
    open?: string[];
    autoplay?: boolean;
  }): Promise<void> {
    // Everything is checked before anything is written: a bad session or path leaves the workspace as it was.
    const session = params.session === undefined ? undefined : await this.readSession(params.session);
    const files: FileMap = { ...params.files };
    if (params.config !== undefined)
      files[CONFIG_FILE] = typeof params.config === "string" ? params.config : JSON.stringify(params.config, null, 2);
    await this.write(files);
    if (params.config !== undefined) await this.surface.reopen();
    if (session?.kind === "record") await this.surface.adopt(session.record);
    if (session?.kind === "script") {
      this.script = session.script;
      if (params.autoplay) void this.play(session.script).catch(() => {});
    }
    for (const path of params.open ?? []) await this.openFile(path);
    // Nothing named to show: the reader sees the host's first file rather than an empty list of calls.
    const first = Object.keys(params.files ?? {})[0];
    if (this.options.openFirstFile && !params.open?.length && session === undefined && first !== undefined) await this.openFile(first);
    // An editor named with no file: shown again now that the files are in, so it opens on the first.
    else if (this.surface.looks().view === "editor" && !params.open?.length) this.surface.setView("editor");
    const checkpoints = await this.keptCheckpoints();
    if (checkpoints) {
      await checkpoints.record({ kind: "outside" });
      this.startedAt = checkpoints.head();
    }
    this.options.onStarted?.();
  }

  private async readSession(value: unknown): Promise<{ kind: "record"; record: SessionRecord } | { kind: "script"; script: ScriptFile }> {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
    if (typeof parsed === "object" && parsed !== null && "steps" in parsed) {
      const { parseScriptFile } = await import("../page/script-file.js");
      return { kind: "script", script: parseScriptFile(text, "the embed's session script") };
    }
    const { importSession } = await import("../session/record/session-json.js");
    return { kind: "record", record: importSession(text) };
  }

  /**
   * Every path to create checked against the others and against what the workspace holds, before the
   * first write: no name the share codec would refuse, no file that is also a folder, no link in the
   * workspace leading a write out of it (a host must not be able to write or half-write anything else).
   */
  private async checkCreate(paths: string[]): Promise<void> {
    const runtime = this.surface.runtime();
    const relatives = paths.map((path) => relative(this.root, landingPath(this.root, path)));
    const problem = sharePathsProblem(relatives);
    if (problem) throw new Error(`refused ${problem}; nothing was written.`);
    const refuse = (rel: string, why: string) => new Error(`refused "${printable(rel)}": ${why}; nothing was written.`);
    // Each folder is looked at once (thousands of files share a few folders); "missing" means nothing under it exists either.
    const folders = new Map<string, Promise<"missing" | "present">>();
    const folder = (dir: string, rel: string): Promise<"missing" | "present"> => {
      if (dir === "" || dir === ".") return Promise.resolve("present");
      let known = folders.get(dir);
      if (!known) {
        known = (async () => {
          if ((await folder(dirname(dir), rel)) === "missing") return "missing";
          const at = join(this.root, dir);
          const stat = await runtime.fs.lstat(at).catch(() => undefined);
          if (!stat) return "missing";
          if (stat.type === "symlink" && !(await writeLandsInside(runtime, at)))
            throw refuse(rel, `${printable(dir)} is a symbolic link leading out of the workspace`);
          const target = stat.type === "symlink" ? await runtime.fs.stat(at).catch(() => undefined) : stat;
          if (!target) return "missing";
          if (target.type !== "directory") throw refuse(rel, `${printable(dir)} is a file in the workspace, not a folder`);
          return "present";
        })();
        folders.set(dir, known);
      }
      return known;
    };
    for (const rel of relatives) {
      if ((await folder(dirname(rel), rel)) === "missing") continue;
      const at = join(this.root, rel);
      const stat = await runtime.fs.lstat(at).catch(() => undefined);
      if (!stat) continue;
      // Writing to a link writes its target, dangling or not: it must land inside.
      if (stat.type === "symlink" && !(await writeLandsInside(runtime, at)))
        throw refuse(rel, "it is a symbolic link leading out of the workspace");
      const target = stat.type === "symlink" ? await runtime.fs.stat(at).catch(() => undefined) : stat;
      if (target?.type === "directory") throw refuse(rel, "it is a folder in the workspace, not a file");
    }
  }

  private async write(files: FileMap): Promise<void> {
    const incoming = Object.entries(files).map(([path, data]) => ({ path, data: encodeFile(data) }));
    if (incoming.length === 0) return;
    await this.checkCreate(incoming.map((file) => file.path));
    await importFiles(this.surface.runtime(), this.root, incoming);
  }

  /** The frame's checkpoints (its page opens them with its sessions; in memory, as its files are), if its runtime keeps any. */
  private keptCheckpoints(): Promise<Checkpoints> | undefined {
    const runtime = this.surface.runtime();
    openPageCheckpoints(runtime, "embed", { persistent: false, readOnly: false });
    return pageCheckpointsOf(runtime);
  }

  private checkpoints(): Promise<Checkpoints> {
    const open = this.keptCheckpoints();
    if (!open) throw new Error(`this embed's ${this.surface.runtime().kind} runtime keeps no checkpoints, so nothing can be reverted`);
    return open;
  }

  private async revert(callID: string): Promise<string[]> {
    const checkpoints = await this.checkpoints();
    const before = checkpoints.beforeCall(callID);
    if (before === undefined) throw new Error(`no checkpoint of call ${callID}: it did not run in this embed, or has not ended yet`);
    // The host asks on purpose, with no one in the frame to ask: edits made in the frame since go too.
    const result = await checkpoints.restore(before, { confirm: true });
    return result.plan.writes.map((write) => write.path);
  }

  private async reset(): Promise<string[]> {
    if (this.startedAt === undefined) throw new Error("reset() needs start() first: there are no starting files to go back to");
    const result = await (await this.checkpoints()).restore(this.startedAt, { confirm: true });
    return result.plan.writes.map((write) => write.path);
  }

  private async applyFsDiff(diff: { create?: FileMap; destroy?: string[] }): Promise<void> {
    const doomed = (diff.destroy ?? []).map((path) => landingPath(this.root, path));
    // rm removes a link itself, not what it points to: what must stay inside is the folder holding the name.
    for (const path of doomed) {
      if (!(await writeLandsInside(this.surface.runtime(), dirname(path))))
        throw new Error(
          `refused "${printable(relative(this.root, path))}": a symbolic link in the workspace leads it outside; nothing was deleted.`,
        );
    }
    await this.write(diff.create ?? {});
    for (const path of doomed) await this.surface.runtime().fs.rm(path, { recursive: true, force: true });
  }

  private async snapshot(): Promise<FileMap> {
    const runtime = this.surface.runtime();
    const out: FileMap = {};
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await runtime.fs.readdir(dir)) {
        const path = join(dir, entry.name);
        if (entry.type === "directory") await walk(path);
        else if (entry.type === "file") out[relative(this.root, path)] = decodeFile(await runtime.fs.readFile(path));
      }
    };
    await walk(this.root);
    return out;
  }

  /**
   * A share link (src/embed/share) to the full workbench with this embed's files, session and view: the
   * reader's way out to a workbench of their own ("Open in workbench"). Never the visitor's keys: an embed
   * has none, and the codec strips anything that looks like one.
   */
  private async shareUrl(): Promise<string> {
    if (!this.options.workbench) throw new Error("shareUrl: this frame does not know the workbench's address.");
    const [{ encodeShareLink }, { exportSession, SessionFile }, files, page] = await Promise.all([
      import("./share/index.js"),
      import("../session/record/session-json.js"),
      this.snapshot(),
      this.surface.page(),
    ]);
    const { view, theme } = this.surface.looks();
    const session = SessionFile.parse(JSON.parse(exportSession(page.record)));
    return encodeShareLink({ name: "From an embed", files, session, view: { panes: [view], theme } }, this.options.workbench);
  }

  private async openFile(path: string): Promise<void> {
    const target = landingPath(this.root, path);
    const stat = await this.surface
      .runtime()
      .fs.stat(target)
      .catch(() => undefined);
    if (!stat || stat.type !== "file")
      throw new Error(`openFile: there is no file "${path}" in the embed's workspace; write it first (files or applyFsDiff).`);
    this.surface.openFile(target);
  }

  private play(script: ScriptFile, prompt?: string): Promise<void> {
    return Promise.all([this.surface.chats(), this.surface.page()]).then(([chats, page]) =>
      chats.runScript(page, prompt ? { ...script, prompt } : script, { name: SCRIPT_NAME, speed: REPLAY_SPEED }),
    );
  }

  private async run(message: string): Promise<void> {
    if (this.script) return this.play(this.script, message);
    const [chats, page] = await Promise.all([this.surface.chats(), this.surface.page()]);
    const chat = chats.chatFor(page);
    const asked = chat.model();
    if (!asked)
      throw new Error(
        "run: this embed has no model to answer with (an embed never sees the visitor's keys): give it a `session` script to replay.",
      );
    // A model here is one the reader picked and pays for with a key they typed into the frame: a host page's
    // message spends it only when the reader says so, for this message alone.
    const model = `${asked.providerID}/${asked.modelID}`;
    const host = this.options.host?.() ?? "the page holding this frame";
    if (!(await this.surface.askReader({ host, message, model })))
      throw new Error(`run: the reader did not allow this message to be sent to ${model} on their key; nothing was sent.`);
    const now = chat.model();
    // The reader said yes to one model: a change of model while the prompt was open is not what they allowed.
    if (now?.providerID !== asked.providerID || now.modelID !== asked.modelID)
      throw new Error(`run: the model changed from ${model} while the reader was asked; nothing was sent. Call run() again.`);
    await chat.send({ text: message });
  }
}
