/**
 * Assistant text as markdown, built as DOM nodes from `marked`'s tokens: nothing is ever parsed as
 * HTML (raw HTML in the text shows as the text it is), links go only to http(s) and mailto, and images
 * are shown as links rather than loaded (a model's text must not make the page fetch a URL of its
 * choosing). While a message streams only its last block changes, so only that block is lexed again
 * and rebuilt, and at most once per animation frame.
 */
import type { Token, Tokens } from "marked";
import { createComputed, createMemo, createSignal, For, Index, onCleanup, Show, untrack, type JSX } from "solid-js";
import { Dynamic } from "solid-js/web";
import { decodeEntities, safeHref } from "./markdown-safety.js";
import { StreamingLexer } from "./markdown-stream.js";

type Inline = Token;

function SafeLink(props: { href: string | null | undefined; title?: string | null; children: JSX.Element }) {
  const href = () => safeHref(props.href);
  return (
    <Show
      when={href()}
      fallback={
        <span class="md-link-blocked" title={`Link not opened: ${props.href ?? ""}`}>
          {props.children}
        </span>
      }
    >
      <a href={href()} title={props.title ?? undefined} target="_blank" rel="noopener noreferrer">
        {props.children}
      </a>
    </Show>
  );
}

function Inlines(props: { tokens: readonly Inline[] | undefined }) {
  return <For each={props.tokens ?? []}>{(token) => <InlineToken token={token} />}</For>;
}

function InlineToken(props: { token: Inline }): JSX.Element {
  const token = props.token;
  switch (token.type) {
    case "text": {
      const text = token as Tokens.Text;
      return text.tokens && text.tokens.length > 0 ? (
        <Inlines tokens={text.tokens} />
      ) : (
        <>{text.escaped ? text.text : decodeEntities(text.text)}</>
      );
    }
    case "escape":
      return <>{(token as Tokens.Escape).text}</>;
    case "strong":
      return (
        <strong>
          <Inlines tokens={(token as Tokens.Strong).tokens} />
        </strong>
      );
    case "em":
      return (
        <em>
          <Inlines tokens={(token as Tokens.Em).tokens} />
        </em>
      );
    case "del":
      return (
        <del>
          <Inlines tokens={(token as Tokens.Del).tokens} />
        </del>
      );
    case "codespan":
      return <code class="md-code">{(token as Tokens.Codespan).text}</code>;
    case "br":
      return <br />;
    case "link": {
      const link = token as Tokens.Link;
      return (
        <SafeLink href={link.href} title={link.title}>
          <Inlines tokens={link.tokens} />
        </SafeLink>
      );
    }
    case "image": {
      const image = token as Tokens.Image;
      return (
        <SafeLink href={image.href} title={image.title}>
          {`[image: ${image.text || image.href}]`}
        </SafeLink>
      );
    }
    case "checkbox":
      return <input type="checkbox" checked={(token as Tokens.Checkbox).checked} disabled />;
    // Raw HTML (and anything unknown) shows as the characters that were written.
    default:
      return <>{token.raw}</>;
  }
}

function ListBlock(props: { list: Tokens.List }) {
  const items = () => (
    <For each={props.list.items}>
      {(item) => (
        <li classList={{ "md-task": item.task }}>
          <Blocks tokens={item.tokens} tight={!item.loose} />
        </li>
      )}
    </For>
  );
  return (
    <Show when={props.list.ordered} fallback={<ul>{items()}</ul>}>
      <ol start={props.list.start === "" || props.list.start === 1 ? undefined : props.list.start}>{items()}</ol>
    </Show>
  );
}

function TableBlock(props: { table: Tokens.Table }) {
  const align = (index: number) => props.table.align[index] ?? undefined;
  return (
    <div class="md-table-wrap">
      <table>
        <thead>
          <tr>
            <For each={props.table.header}>
              {(cell, index) => (
                <th style={align(index()) ? { "text-align": align(index())! } : undefined}>
                  <Inlines tokens={cell.tokens} />
                </th>
              )}
            </For>
          </tr>
        </thead>
        <tbody>
          <For each={props.table.rows}>
            {(row) => (
              <tr>
                <For each={row}>
                  {(cell, index) => (
                    <td style={align(index()) ? { "text-align": align(index())! } : undefined}>
                      <Inlines tokens={cell.tokens} />
                    </td>
                  )}
                </For>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}

/** One block-level token. `tight`: inside a tight list item, where text is not wrapped in a paragraph. */
function Block(props: { token: Token; tight?: boolean }): JSX.Element {
  const token = props.token;
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return (
        <p>
          <Inlines tokens={(token as Tokens.Paragraph).tokens} />
        </p>
      );
    case "text": {
      const text = token as Tokens.Text;
      const inline = text.tokens ? <Inlines tokens={text.tokens} /> : <>{decodeEntities(text.text)}</>;
      return props.tight ? inline : <p>{inline}</p>;
    }
    case "heading": {
      const heading = token as Tokens.Heading;
      return (
        <Dynamic component={`h${Math.min(6, Math.max(1, heading.depth))}`} class="md-heading">
          <Inlines tokens={heading.tokens} />
        </Dynamic>
      );
    }
    case "code": {
      const code = token as Tokens.Code;
      const lang = code.lang?.split(/\s/)[0];
      return (
        <pre class="md-pre" data-lang={lang || undefined}>
          <code class={lang ? `language-${lang}` : undefined}>{code.text}</code>
        </pre>
      );
    }
    case "blockquote":
      return (
        <blockquote>
          <Blocks tokens={(token as Tokens.Blockquote).tokens} />
        </blockquote>
      );
    case "list":
      return <ListBlock list={token as Tokens.List} />;
    case "table":
      return <TableBlock table={token as Tokens.Table} />;
    case "hr":
      return <hr />;
    // An HTML block is shown as the source it is.
    case "html":
      return <pre class="md-html">{token.raw}</pre>;
    default:
      return token.type === "checkbox" ? <InlineToken token={token} /> : <p>{token.raw}</p>;
  }
}

function Blocks(props: { tokens: readonly Token[]; tight?: boolean }) {
  return <For each={props.tokens}>{(token) => <Block token={token} tight={props.tight} />}</For>;
}

// Without animation frames (a hidden tab keeps none coming, tests may have none) a short timer stands in.
const FRAME_FALLBACK_MS = 30;

function nextFrame(run: () => void): () => void {
  if (typeof requestAnimationFrame === "function") {
    const frame = requestAnimationFrame(run);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(run, FRAME_FALLBACK_MS);
  return () => clearTimeout(timer);
}

/**
 * `text()` as it should be drawn: while `streaming()` the latest text once per animation frame however
 * many deltas came in it, otherwise (and as soon as streaming ends) the text as it is.
 */
function coalescedText(text: () => string, streaming: () => boolean): () => string {
  const [shown, setShown] = createSignal(untrack(text));
  let cancel: (() => void) | undefined;
  const flush = () => {
    cancel = undefined;
    setShown(untrack(text));
  };
  createComputed(() => {
    const current = text();
    if (!streaming()) {
      cancel?.();
      cancel = undefined;
      setShown(current);
      return;
    }
    cancel ??= nextFrame(flush);
  });
  onCleanup(() => cancel?.());
  return shown;
}

/**
 * `text` as markdown. Each top-level block is rebuilt only when its own source changes, so a streaming
 * message (the text grows at its end) rebuilds just its last block. `streaming`: the text is still
 * growing, so drawing it may wait for the next animation frame; the final text is always drawn.
 */
export function Markdown(props: { text: string; streaming?: boolean; class?: string }) {
  const lexer = new StreamingLexer();
  const shown = coalescedText(
    () => props.text,
    () => props.streaming === true,
  );
  const tokens = createMemo(() => lexer.lex(shown()));
  // The same string for the same token, so comparing a kept block's source costs nothing per delta.
  const sourceOf = new WeakMap<Token, string>();
  const sourceKey = (token: Token) => {
    let known = sourceOf.get(token);
    if (known === undefined) sourceOf.set(token, (known = `${token.type}\u0000${token.raw}`));
    return known;
  };
  // A link reference definition changes how references in other blocks read while their source stays the
  // same, so where the text has any, each block's key carries them too (such a text is lexed in full anyway).
  const sources = createMemo(() => {
    const list = tokens();
    const links = (list as Token[] & { links?: Record<string, unknown> }).links;
    const definitions = links && Object.keys(links).length > 0 ? `\u0001${JSON.stringify(links)}` : "";
    return definitions === "" ? list.map(sourceKey) : list.map((token) => sourceKey(token) + definitions);
  });
  return (
    <div class={`markdown${props.class ? ` ${props.class}` : ""}`} data-testid="markdown">
      <Index each={sources()}>
        {(source, index) => {
          // Follows its own source only; the token is read when that source changed.
          const token = createMemo(() => (source(), untrack(tokens)[index]));
          return (
            <Show when={token()} keyed>
              {(current) => <Block token={current} />}
            </Show>
          );
        }}
      </Index>
    </div>
  );
}
