// The runtime's own path handling (always absolute, POSIX paths); programs get Node's path module.
export { dirname, isAbsolute, join, resolve } from "pathe";
