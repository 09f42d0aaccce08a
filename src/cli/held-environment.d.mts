// Types of held-environment.mjs (plain JavaScript so the bin can run it before the TypeScript loader).

/** The usual key variables of the built-in providers (a configured provider may add more: run-env.ts). */
export declare const BUILTIN_KEY_VARIABLES: readonly string[];

/** The environment the process started with: keys included, even once hidden. */
export declare function startEnvironment(): Readonly<Record<string, string | undefined>>;

/**
 * Copies the environment, then hides the named variables. Returns why some could not be cleared from
 * the process's environment block (empty where all went, and off Linux).
 */
export declare function holdStartEnvironment(names: Iterable<string>): string[];

/** Deletes the variables from `process.env` and zeroes their entries in the environment block. */
export declare function hideVariables(names: Iterable<string>): string[];

/** Runs `start` (which starts the TypeScript loader) with only the loader's own variables in `process.env`. */
export declare function withLoaderEnvironment(start: () => Promise<unknown>): Promise<void>;
