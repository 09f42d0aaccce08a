/**
 * How many leading words name "the command" for an "always allow" rule (OpenCode's BashArity table, written
 * out as data). `git log --oneline` is the command `git log`, so approving it always stores `git log *`;
 * `npm run dev -- --port 3000` is `npm run dev`. The longest listed prefix wins; a command not listed is
 * its first word. Flags count as words (`python -m venv x` → `python -m`) and lookups are exact.
 */

const ONE = ["cat", "cd", "chmod", "chown", "cp", "echo", "env", "export", "grep", "kill", "killall", "ln", "ls", "mkdir", "mv", "ps", "pwd", "rm", "rmdir", "sleep", "source", "tail", "touch", "unset", "which"];

const TWO = [
  "bazel", "brew", "bun", "cargo", "cdk", "cf", "cmake", "composer", "consul", "crictl", "deno", "docker", "eksctl", "firebase", "flyctl",
  "git", "go", "gradle", "helm", "heroku", "hugo", "ip", "kind", "kubectl", "kustomize", "make", "mc", "minikube", "mongosh", "mysql", "mvn",
  "ng", "npm", "nvm", "nx", "openssl", "pip", "pipenv", "pnpm", "poetry", "podman", "psql", "pulumi", "pyenv", "python", "rake", "rbenv",
  "redis-cli", "rustup", "serverless", "skaffold", "sls", "sst", "swift", "systemctl", "terraform", "tmux", "turbo", "ufw", "vault", "vercel",
  "volta", "wp", "yarn",
];

const THREE = [
  "aws", "az", "doctl", "gcloud", "gh", "sfdx", "bun run", "bun x", "cargo add", "cargo run", "consul kv", "deno task", "docker builder",
  "docker compose", "docker container", "docker image", "docker network", "docker volume", "eksctl create", "git config", "git remote",
  "git stash", "ip addr", "ip link", "ip netns", "ip route", "kind create", "kubectl kustomize", "kubectl rollout", "mc admin", "npm exec",
  "npm init", "npm run", "npm view", "openssl req", "openssl x509", "pnpm dlx", "pnpm exec", "pnpm run", "podman container", "podman image",
  "pulumi stack", "terraform workspace", "vault auth", "vault kv", "yarn dlx", "yarn run",
];

export const BASH_ARITY: ReadonlyMap<string, number> = new Map([
  ...ONE.map((key) => [key, 1] as const),
  ...TWO.map((key) => [key, 2] as const),
  ...THREE.map((key) => [key, 3] as const),
]);

/** The words of `tokens` that name the command; `[]` for no tokens. */
export function bashArityPrefix(tokens: readonly string[]): string[] {
  for (let length = tokens.length; length > 0; length--) {
    const arity = BASH_ARITY.get(tokens.slice(0, length).join(" "));
    if (arity !== undefined) return tokens.slice(0, arity);
  }
  return tokens.slice(0, 1);
}
