/** Typographic punctuation, shared by the edit engine and apply_patch's context search. */
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g;
const ELLIPSIS = /\u2026/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/** Typographic punctuation a model tends to type as ASCII (and the other way round), made ASCII. */
export function normalizePunctuation(text: string): string {
  return text.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, "-").replace(ELLIPSIS, "...").replace(SPACES, " ");
}
